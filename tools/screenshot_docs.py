"""Screenshots of the built documentation in a real headless browser, 1 400 px wide.

Issue 37.1 asks that the study pages, the claims page and the gallery be
looked at as a reader sees them. This builds the HTML docs (unless
``--html`` names a build) and has Chromium (Debian: ``apt-get install -y
chromium``) take a full-page screenshot of each page::

    python tools/screenshot_docs.py --out screenshots            # build, then shoot
    python tools/screenshot_docs.py --html docs/_build/html --out screenshots
    python tools/screenshot_docs.py --gallery                    # run the gallery too

Each page is written as ``<out>/<page>.png`` (its height is the page's, up to
``--height``); open them with any image viewer.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The pages to look at: the claims page, every study page, the gallery.
PAGES = (
    "results/claims.html",
    "results/generated/one_step.html",
    "results/generated/sample_complexity.html",
    "results/generated/parameter_scaling.html",
    "results/generated/training_sensitivity.html",
    "results/generated/random_init_sensitivity.html",
    "results/generated/zero_sensitivity_bound.html",
    "results/generated/k_sparse.html",
    "auto_examples/index.html",
    "auto_examples/plot_sample_complexity.html",
)


def browser():
    """The Chromium executable on the PATH."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    sys.exit("screenshot_docs: no chromium on the PATH (Debian: apt-get install -y chromium)")


def build(out, gallery):
    """The HTML docs built into ``out`` (the gallery run only with ``gallery``)."""
    env = {**os.environ, "SKXOR_DOCS_RUN_GALLERY": "1" if gallery else "0", "MPLBACKEND": "Agg"}
    subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", "-d",
                    str(out / "doctrees"), str(ROOT / "docs"), str(out / "html")],
                   check=True, env=env)
    return out / "html"


def shoot(chrome, html, page, png, width, height):
    subprocess.run([chrome, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--window-size={width},{height}", f"--screenshot={png}",
                    (html / page).resolve().as_uri()],
                   check=True, capture_output=True, timeout=120)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--html", type=Path, help="a built docs/_build/html (default: build)")
    parser.add_argument("--out", type=Path, default=Path("screenshots"))
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=4000)
    parser.add_argument("--gallery", action="store_true", help="run the gallery examples")
    parser.add_argument("pages", nargs="*", default=list(PAGES))
    args = parser.parse_args(argv)
    chrome = browser()
    html = args.html or build(Path(tempfile.mkdtemp(prefix="skxor-docs-")), args.gallery)
    args.out.mkdir(parents=True, exist_ok=True)
    for page in args.pages:
        png = args.out / (page.replace("/", "_").removesuffix(".html") + ".png")
        shoot(chrome, html, page, png, args.width, args.height)
        print(png)


if __name__ == "__main__":
    main()
