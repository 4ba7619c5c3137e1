"""Printing a report to PDF with headless Chromium."""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path


from ..errors import UserError


CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome", "headless_shell")


CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)


def find_chromium():
    """Path of a Chromium / Chrome binary ($SIM_CHROMIUM first), or None."""
    env = os.environ.get("SIM_CHROMIUM")
    if env:
        return env if shutil.which(env) or os.path.isfile(env) else None
    for name in CHROMIUM_NAMES:
        p = shutil.which(name)
        if p:
            return p
    return None


def chromium_command(binary, user_dir, *extra):
    return [binary, *CHROMIUM_FLAGS, f"--user-data-dir={user_dir}", *extra]


def write_pdf(html_path, pdf_path, timeout=180):
    """Print an HTML report to PDF with headless Chromium; UserError (one line) if Chromium is missing or fails."""
    binary = find_chromium()
    if binary is None:
        raise UserError(
            "--pdf needs Chromium and none was found (install it, e.g. `apt-get install chromium`, or "
            f"set SIM_CHROMIUM to its path); the HTML report is in {html_path}"
        )
    pdf_path = Path(pdf_path).resolve()
    pdf_path.parent.mkdir(parents=True, exist_ok=True)
    if pdf_path.exists():
        pdf_path.unlink()
    with tempfile.TemporaryDirectory(prefix="sim-chromium-") as tmp:
        cmd = chromium_command(
            binary, tmp, f"--print-to-pdf={pdf_path}", "--no-pdf-header-footer", Path(html_path).resolve().as_uri()
        )
        try:
            res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise UserError(f"Chromium did not finish printing {html_path} within {timeout} s") from None
    if not pdf_path.exists() or pdf_path.stat().st_size == 0:
        last = (res.stderr.strip().splitlines() or ["no output"])[-1]
        raise UserError(f"Chromium could not print the PDF (exit {res.returncode}): {last}")
    return pdf_path
