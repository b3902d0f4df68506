"""Run a piece of the islands' JavaScript in Node: bundle it with the project's esbuild, print JSON.

A test module writes an ES module that imports from ./static_src/… and ends with
console.log(JSON.stringify(…)); `node_results` answers the parsed JSON. Skips when Node or
esbuild are missing.
"""

import json
import os
import secrets
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def node_results(source, tmp_path, name, *, env=None):
    """`env`: extra environment for Node, e.g. {"TZ": "America/New_York"} for a browser in another zone."""
    node = shutil.which("node")
    esbuild = ROOT / "node_modules" / ".bin" / "esbuild"
    if not node or not esbuild.exists():
        pytest.skip("node and esbuild are needed")
    # the entry sits at the project root so that ./static_src/… resolves; one file per test run (tmp_path's
    # name is cut short and counted per xdist worker: two workers' tests could share it)
    entry = ROOT / f".{name}-{tmp_path.name}-{secrets.token_hex(6)}.mjs"
    bundle = tmp_path / "check.mjs"
    entry.write_text(source)
    try:
        subprocess.run([str(esbuild), str(entry), "--bundle", "--format=esm", "--platform=node",
                        f"--outfile={bundle}", "--log-level=error"], check=True, cwd=ROOT)
    finally:
        entry.unlink()
    run_env = {**os.environ, **env} if env else None
    return json.loads(subprocess.run([node, str(bundle)], check=True, capture_output=True, text=True,
                                     env=run_env).stdout)
