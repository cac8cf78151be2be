"""neuron-report (issue 22, item 3): one self-contained page of what a pipeline does.

On a real JAX program (a corpus case whose accumulating all-reduce the pipeline moves out of its
loop): the Markdown and HTML reports list the collective with its place, groups, bytes and the
pass's remark, and the per-kind launches / bytes / time before and after, which must agree with
`collective_stats` of the program before and after the pipeline. The HTML page is opened in
headless Chromium (Debian's `chromium`, installed by `make browser`): the rendered DOM holds the
tables and both charts, and the screenshot (kept under build/test-artifacts/) shows the charts'
before/after bar colours - the page rendered offline, with nothing but itself.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import neuron_cc as nc
from tests.conftest import run_tool

CASE = Path(__file__).parent / "corpus" / "jax" / "pmean_grad_accum" / "spmd.hlo"
ARTIFACTS = Path(__file__).parent.parent / "build" / "test-artifacts"
BEFORE, AFTER = (0xC0, 0x50, 0x4D), (0x4F, 0x81, 0xBD)


def _expected_steps() -> list[str]:
    module = nc.import_hlo(CASE)
    before = nc.collective_stats(module)
    after = nc.collective_stats(nc.run_pipeline(module, "neuron-default-pipeline"))
    assert after["all-reduce"]["launches"] < before["all-reduce"]["launches"]
    b, a = before["all-reduce"], after["all-reduce"]
    return [
        f"{b['launches']:.0f} → {a['launches']:.0f}",
        f"{b['bytes_per_device']:.0f} → {a['bytes_per_device']:.0f}",
        f"{b['time_us']:.2f} → {a['time_us']:.2f}",
    ]


def test_markdown_report(tmp_path: Path) -> None:
    out = tmp_path / "report.md"
    result = run_tool("neuron-report", CASE, "--format", "md", "-o", out)
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    step = next(line for line in text.splitlines() if line.startswith("| all-reduce |"))
    assert step == "| all-reduce | " + " | ".join(_expected_steps()) + " |"
    row = next(line for line in text.splitlines() if "(hlo.all_reduce)" in line)
    assert "| all_reduce | main" in row
    assert "| 1 |" in row
    assert "[[0, 1, 2, 3, 4, 5, 6, 7]]" in row
    assert "| 512 |" in row
    assert "neuron-while-loop-all-reduce-code-motion: moved" in row


def test_report_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.hlo"
    bad.write_text("HloModule m\n\nENTRY e {\n  ROOT p = f32[2] bogus()\n}\n")
    result = run_tool("neuron-report", bad, "-o", tmp_path / "out.html")
    assert result.returncode == 1
    assert f"{bad}:4:" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out.html").exists()


@pytest.mark.skipif(shutil.which("chromium") is None, reason="no chromium (make browser)")
def test_html_report_renders_in_chromium(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    result = run_tool("neuron-report", CASE, "-o", page)
    assert result.returncode == 0, result.stderr
    assert "http" not in page.read_text().replace("http-equiv", "")  # nothing to fetch
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files"]
    dom = subprocess.run(
        ["chromium", *flags, "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    assert 'id="steps"' in dom
    assert 'id="collectives"' in dom
    for cell in _expected_steps():
        assert f"<td>{cell}</td>" in dom
    assert dom.count('src="data:image/png;base64,') == 2
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / "report.png"
    shot.unlink(missing_ok=True)
    subprocess.run(
        ["chromium", *flags, "--window-size=1400,1200", f"--screenshot={shot}", page.as_uri()],
        capture_output=True,
        timeout=120,
        check=True,
    )
    import matplotlib.image as mpimg

    pixels = (np.asarray(mpimg.imread(shot))[..., :3] * 255).round().astype(int)
    for colour in (BEFORE, AFTER):  # both series of the charts are on the screen
        close = np.abs(pixels - np.array(colour)).sum(axis=-1) <= 6
        assert close.sum() > 200, colour
