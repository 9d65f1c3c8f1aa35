#!/usr/bin/env python3
"""Judges the runs of Scripts/desktop-lab test from their outputs and traces.

    Scripts/desktop_lab_judge.py OUT

Each run (OUT/NAME.rc, NAME.out, and for the sample NAME.csv) is judged on
what must hold on a busy machine too: it ended on time (no hang: a timeout's
status is a failure), it ended well or was refused with words, the sample
names its display clock (natively: the compositor's presentation feedback), no
measured frame is on the glass before its target (beyond the half millisecond
a frame may also be late by, in at most 1% of them: a compositor's own
completion times jitter), and no uncapped run is locked at half the display's
rate with a third of its frames late. Its figures (achieved FPS, late frames,
the clock) are printed for the reader, not judged: tight figures belong in a
bench. Exit 1 when a run failed, 66 when there is nothing to judge.
"""
import csv
import glob
import os
import re
import sys

TOLERANCE = 0.0005  # seconds: FrameRecord.lateTolerance


def summary(text):
    """The run summary's figures: achieved FPS and late frames, or None."""
    m = re.search(r"frames (\d+), achieved ([0-9.]+) FPS.*?late (\d+)", text)
    return (int(m.group(1)), float(m.group(2)), int(m.group(3))) if m else None


def judge_trace(path):
    """(measured frames, early ones, FPS from measured glass times) of a trace."""
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["glass_source"] == "feedback"]
    early = [r for r in rows if float(r["glass_time"]) < float(r["target_timestamp"]) - TOLERANCE]
    fps = None
    if len(rows) > 1:
        span = float(rows[-1]["glass_time"]) - float(rows[0]["glass_time"])
        fps = (len(rows) - 1) / span if span > 0 else None
    return len(rows), len(early), fps


def judge(out, name):
    text = open(os.path.join(out, name + ".out"), errors="replace").read()
    rc = int(open(os.path.join(out, name + ".rc")).read().strip() or 1)
    problems, figures = [], []
    if rc in (124, 137):
        return [f"did not end in time (exit {rc})"], "hang"
    refused = rc != 0 and re.search(r"wl_seat|refus|cannot start", text)
    if refused:
        return [], "refused with words: " + text.strip().splitlines()[-1][:140]
    if rc != 0:
        problems.append(f"exit {rc}: " + " | ".join(text.strip().splitlines()[-2:])[:200])
    figs = summary(text)
    if figs is None:
        problems.append("no run summary")
    else:
        figures.append(f"{figs[0]} frames, {figs[1]:.2f} FPS, {figs[2]} late")
    if "sample" in name:
        clock = re.search(r"display clock: (.*)", text)
        if not clock:
            problems.append("no display clock named")
        else:
            figures.append("clock: " + clock.group(1).strip())
            if "native" in name and "Wayland presentation-time" not in clock.group(1):
                problems.append("natively the clock is not the compositor's feedback")
        trace = os.path.join(out, name + ".csv")
        if os.path.exists(trace):
            measured, early, fps = judge_trace(trace)
            figures.append(f"measured {measured}, early {early}" + (f", glass {fps:.2f} FPS" if fps else ""))
            if early > max(0, measured // 100):
                problems.append(f"{early} of {measured} measured frames on the glass before their target")
            if name.endswith("fps0") and figs and fps and abs(fps - 30) < 1.5 and figs[2] * 3 > figs[0]:
                problems.append(f"locked at half rate ({fps:.2f} FPS, {figs[2]} of {figs[0]} late)")
        elif rc == 0:
            problems.append("no trace")
    return problems, "; ".join(figures)


def main():
    if len(sys.argv) != 2:
        print("usage: Scripts/desktop_lab_judge.py OUT", file=sys.stderr)
        return 64
    out = sys.argv[1]
    names = sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(out, "*.rc")))
    if not names:
        print(f"desktop-lab: no runs in {out}", file=sys.stderr)
        return 66
    failed = 0
    for name in names:
        problems, figures = judge(out, name)
        print(f"  {name:34} {'FAILED' if problems else 'ok':6} {figures}")
        for p in problems:
            print(f"      {p}")
        failed += bool(problems)
    print(f"desktop-lab: {len(names) - failed} of {len(names)} runs held")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
