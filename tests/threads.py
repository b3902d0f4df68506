"""Work started at the same moment in several threads, for the tests of races between processes."""

import threading

from django.db import connection


def at_once(*works, timeout=10):
    """Run each callable in `works` in a thread of its own, all released together, each on its own
    database connection (closed when it is done). Returns what each returned, or the exception it
    raised, in the order given."""
    start = threading.Barrier(len(works), timeout=timeout)
    outcomes = [None] * len(works)

    def run(index, work):
        try:
            start.wait()
            outcomes[index] = work()
        except Exception as exc:  # the test decides which failures are the expected refusals
            outcomes[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(works)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes
