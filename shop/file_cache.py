"""The shared cache of a shop without Redis: Django's file cache, counting its files now and then.

Django's FileBasedCache lists its whole folder at every write to see whether it holds more than
MAX_ENTRIES files, and past them deletes a third of them at random. The listing costs 0.65 ms at
300 files and 5 ms at 3,000 on this machine, at every write (issue 14). Its default of 300 entries
is also far too few for a shop, whose stored pages, sessions' copies, rate-limit counters and
analytics months were culled again and again. So
the folder is counted once every CULL_CHECK_EVERY writes of a process: it holds at most MAX_ENTRIES
files (10,000 in the settings) plus what each process wrote since its last count. Rate-limit
counters are appended to, not rewritten (count_hits). Each key's file name, an MD5 of the key after
Django's key checks, is worked out once per process (every request reads four keys or more: issue 14),
and `get` reads a file with one system call where Django's took a file object, two reads and a pickle
read from the file (half the cost of a small key's read). A small value is written in Django's format
but not compressed (zlib's level 0): a read inflates it four times faster.
"""

import io
import os
import pickle
import time
import zlib

from django.core.cache.backends.filebased import FileBasedCache


class FileCache(FileBasedCache):
    CULL_CHECK_EVERY = 100
    FILE_NAMES_KEPT = 4096

    _writes = 0

    def __init__(self, dir, params):
        super().__init__(dir, params)
        self._file_names = {}  # each thread has a cache object of its own (django.core.cache.caches)

    def _key_to_file(self, key, version=None):
        name = self._file_names.get((key, version))
        if name is None:
            if len(self._file_names) >= self.FILE_NAMES_KEPT:  # session keys are many: start again
                self._file_names.clear()
            name = self._file_names[key, version] = super()._key_to_file(key, version)
        return name

    def get(self, key, default=None, version=None):
        """Django's get: the file holds the expiry pickled, then the value pickled and compressed."""
        path = self._key_to_file(key, version)
        data = _read_whole(path)
        if data is None:
            return default
        stream = io.BytesIO(data)
        try:
            expiry = pickle.load(stream)
        except EOFError:  # an empty file is expired, as in Django's
            expiry = 0
        if expiry is not None and expiry < time.time():
            self._delete(path)
            return default
        return pickle.loads(zlib.decompress(data[stream.tell():]))

    def _write_content(self, file, timeout, value):
        """Django's, with a small value stored uncompressed in its zlib stream (any of Django's file caches
        reads it): inflating the store settings (1.5 kB) took as long as reading their file."""
        pickled = pickle.dumps(value, self.pickle_protocol)
        file.write(pickle.dumps(self.get_backend_timeout(timeout), self.pickle_protocol))
        file.write(zlib.compress(pickled, -1 if len(pickled) >= COMPRESS_FROM else 0))

    def _cull(self):
        self._writes += 1
        if self._writes % self.CULL_CHECK_EVERY == 0:
            super()._cull()

    def count_hits(self, keys, seconds):
        """Add one to each counter in `keys`; their counts (shop.ratelimit: each key names its window).

        A counter is a file that each hit appends a byte to, and its count is the file's length at the
        end of that byte: appends are atomic between processes, where Django's incr (a read, then a
        write) loses the hits of processes counting at once, and they cost no pickling and no rename.
        A window's counter is never read after it; old ones go with the folder's culls, and clear().
        """
        counts = []
        for key in keys:
            file = self._open_counter(self._key_to_file(f"count:{key}"))
            try:
                os.write(file, b"1")
                counts.append(os.lseek(file, 0, os.SEEK_CUR))
            finally:
                os.close(file)
            if counts[-1] == 1:  # a new file, counted towards MAX_ENTRIES like a write
                self._cull()
        return counts

    def _open_counter(self, path):
        try:
            return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        except FileNotFoundError:  # the folder is made at the first count, not looked for at every one
            self._createdir()
            return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)


_CHUNK = 1 << 16
COMPRESS_FROM = 4096  # bytes pickled: a stored page is compressed; a session or the store settings are not


def _read_whole(path):
    """The file's bytes (one read for a file under 64 KiB), or None when there is none."""
    try:
        file = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        data = os.read(file, _CHUNK)
        if len(data) == _CHUNK:  # a stored page, perhaps: the rest
            chunks = [data]
            while chunk := os.read(file, _CHUNK):
                chunks.append(chunk)
            data = b"".join(chunks)
        return data
    finally:
        os.close(file)
