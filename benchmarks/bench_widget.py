"""The widget in real JupyterLab: drop-to-answer latency, time to first render, and bundle size.

Run: ``python benchmarks/bench_widget.py`` (``--moves N``, ``--flavour lab|notebook``). Needs Chromium
(``CHROMIUM_PATH`` or ``/usr/bin/chromium``) and the built bundle (``make setup``).

Latency is timed inside the page: from the ``pointerup`` of a drop to the first animation frame after the board
shows the kernel's answer (the root's ``data-version`` changes). A red five is dragged back and forth between two
black sixes, so every drop is a legal move that Python checks, applies and syncs back.
"""

from __future__ import annotations

import argparse
import gzip
import pathlib
import statistics
import sys
import tempfile
import time

from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.chromium import CHROMIUM_ARGS, find_chromium  # noqa: E402
from tests.browser.jupyter_harness import jupyter_server, open_notebook, page_errors, run_all, write_notebook  # noqa: E402

BUNDLE = ROOT / "src" / "patiencelab" / "static" / "widget.js"

SETUP = """
from patiencelab import Klondike, KlondikeWidget
from patiencelab.core.cards import full_deck
kept = {"6S", "5H", "6C"}
position = {
    "tableau": [{"down": [], "up": ["6S", "5H"]}, {"down": [], "up": ["6C"]}] + [{"down": [], "up": []}] * 5,
    "stock": [str(c) for c in full_deck() if str(c) not in kept],
    "waste": [],
    "foundations": {},
}
w = KlondikeWidget(Klondike.from_position(position))
w
"""

_TIMER = """() => {
  const root = document.querySelector('[data-version]');
  window.__plLatency = [];
  let dropped = null;
  root.addEventListener('pointerup', () => { dropped = performance.now(); }, true);
  new MutationObserver(() => {
    if (dropped === null) return;
    const start = dropped;
    dropped = null;
    requestAnimationFrame(() => window.__plLatency.push(performance.now() - start));
  }).observe(root, { attributes: true, attributeFilter: ['data-version'] });
}"""


def chromium() -> str:
    path = find_chromium()
    if path is None:
        sys.exit("no Chromium found: install Debian's chromium or set CHROMIUM_PATH")
    return path


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run(flavour: str, moves: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium(), args=list(CHROMIUM_ARGS))
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors = page_errors(page)
        with jupyter_server(flavour, pathlib.Path(tmp)) as server:  # type: ignore[arg-type]
            write_notebook(server.root / "bench.ipynb", SETUP)
            loaded = time.perf_counter()
            open_notebook(page, server, "bench.ipynb")
            page_ready = time.perf_counter()
            run_all(page)
            ran = time.perf_counter()
            root = page.locator("[data-version]").first
            root.wait_for(timeout=60_000)
            rendered = time.perf_counter()
            page.evaluate(_TIMER)
            for i in range(moves):
                source, target = ("t1", "t2") if i % 2 == 0 else ("t2", "t1")
                version = root.get_attribute("data-version")
                card = root.locator(f'[data-pile="{source}"] [data-card="5H"]')
                pile = root.locator(f'[data-pile="{target}"]')
                start, end = card.bounding_box(), pile.bounding_box()
                assert start is not None and end is not None
                page.mouse.move(start["x"] + start["width"] / 2, start["y"] + 10)
                page.mouse.down()
                page.mouse.move(end["x"] + end["width"] / 2, end["y"] + 40, steps=5)
                page.mouse.up()
                page.wait_for_function(
                    "v => document.querySelector('[data-version]').dataset.version !== v", arg=version
                )
            page.wait_for_function(f"() => window.__plLatency.length >= {moves}")
            latency: list[float] = page.evaluate("() => window.__plLatency")
        browser.close()
    if errors:
        sys.exit(f"page errors: {errors}")
    return {
        "median_ms": statistics.median(latency),
        "p95_ms": percentile(latency, 0.95),
        "max_ms": max(latency),
        "moves": len(latency),
        "page_load_s": page_ready - loaded,
        "run_to_render_s": rendered - ran,
        "load_to_render_s": rendered - loaded,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--flavour", choices=["lab", "notebook"], default="lab")
    args = parser.parse_args(argv)
    if not BUNDLE.exists():
        sys.exit("the bundle is not built: run 'make setup'")
    raw = BUNDLE.read_bytes()
    result = run(args.flavour, args.moves)
    print(f"| measure ({'JupyterLab' if args.flavour == 'lab' else 'Notebook 7'}) | value |\n|---|---|")
    print(f"| drop -> board shows the answer, median | {result['median_ms']:.1f} ms |")
    print(f"| drop -> board shows the answer, 95th percentile | {result['p95_ms']:.1f} ms |")
    print(f"| drop -> board shows the answer, worst | {result['max_ms']:.1f} ms |")
    print(f"| moves timed | {result['moves']:.0f} |")
    print(f"| notebook page load to kernel idle | {result['page_load_s']:.2f} s |")
    print(f"| run the cell -> first render | {result['run_to_render_s']:.2f} s |")
    print(f"| page load -> first render | {result['load_to_render_s']:.2f} s |")
    print(f"| bundle (minified) | {len(raw) / 1000:.1f} kB |")
    print(f"| bundle (gzip) | {len(gzip.compress(raw)) / 1000:.1f} kB |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
