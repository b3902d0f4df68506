"""shop.wsgi, as gunicorn loads it: start-up's objects are frozen out of the garbage collector's way."""

import subprocess
import sys
from pathlib import Path

from django.conf import settings


def test_the_web_process_freezes_what_start_up_loaded():
    loaded = subprocess.run(
        [sys.executable, "-c", "import gc, shop.wsgi; print(gc.get_freeze_count())"],
        cwd=Path(settings.BASE_DIR),
        capture_output=True, text=True, timeout=120,
    )
    assert loaded.returncode == 0, loaded.stderr
    # Django and the apps are tens of thousands of objects; unfrozen, the count is 0
    assert int(loaded.stdout) > 10_000
