#!/usr/bin/env python3
"""Judges the runs of Scripts/desktop-lab test from their outputs and traces.

    Scripts/desktop_lab_judge.py [--done-when] OUT

Each run (OUT/NAME.rc, NAME.out, and for the sample NAME.csv) is judged on
what must hold on a busy machine too: it ended on time (no hang: a timeout's
status is a failure), it ended well or was refused with words, the sample
names its display clock (natively: the compositor's presentation feedback), no
measured frame is on the glass before its target (beyond the half millisecond
a frame may also be late by, in at most 1% of them: a compositor's own
completion times jitter), and no uncapped run is locked at half the display's
rate with a third of its frames late where its frames' own work (each row's
work_end - callback_time, the median) fit in one refresh: a busy machine that
makes the work take longer than a refresh slows the game to what the work
allows, which may be near half the rate, and is not a lock. Through XWayland
the clock must say it is estimated, and why where it is the fit to present
returns (the X server's clock does not tick). Its figures (achieved FPS, late
frames, the clock) are printed for the reader, and per compositor, path and
rate (NAME without its round, -rNN, from `desktop-lab test --repeat N`) the
runs held, the worst achieved FPS's distance from its rate, the worst share of
late frames, and any early or half-rate run. A run given the compositor's
protocol error (NAME ending in protocol-error, NAME.fault the proxy's log)
must end on it within 5 s, with exit status 1, naming it.

--done-when judges those figures too, as the lane's done-when states them:
each sample run's achieved FPS (from glass times, the run summary's) within 1%
of its rate (the display's 60 Hz at --fps 0: every compositor here is started
at 60 Hz; 30 at --fps 30) and at most 1% of its frames late (every frame the
summary counts, whatever its glass time rests on: through XWayland none is
measured). Without it they are not judged: tight figures belong in a bench,
not in the test phase. Exit 1 when a run failed, 66 when there is nothing to judge.
"""
import csv
import glob
import os
import re
import sys

TOLERANCE = 0.0005  # seconds: FrameRecord.lateTolerance
DISPLAY_HZ = 60.0   # the rate Scripts/desktop starts every compositor at
SAMPLE = re.compile(r"^(\w+)-sample-(native|xwayland)-fps(\d+)(?:-r\d+)?$")
FAULT = re.compile(r"^\w+-sample-native-protocol-error(?:-r\d+)?$")
FAULT_ENDING = 5.0  # seconds from the protocol error to the game's end: "at once", on a busy machine


def summary(text):
    """The run summary's figures: achieved FPS and late frames, or None."""
    m = re.search(r"frames (\d+), achieved ([0-9.]+) FPS.*?late (\d+)", text)
    return (int(m.group(1)), float(m.group(2)), int(m.group(3))) if m else None


def judge_trace(path):
    """(measured frames, early ones, FPS from measured glass times, the median of the frames' own
    work in seconds or None) of a trace."""
    with open(path, newline="") as f:
        every = list(csv.DictReader(f))
    rows = [r for r in every if r["glass_source"] == "feedback"]
    early = [r for r in rows if float(r["glass_time"]) < float(r["target_timestamp"]) - TOLERANCE]
    fps = None
    if len(rows) > 1:
        span = float(rows[-1]["glass_time"]) - float(rows[0]["glass_time"])
        fps = (len(rows) - 1) / span if span > 0 else None
    works = sorted(float(r["work_end"]) - float(r["callback_time"]) for r in every if r.get("work_end"))
    return len(rows), len(early), fps, works[len(works) // 2] if works else None


def judge_fault(out, name, text, rc):
    """(problems, figures) of a run given a protocol error (Scripts/wayland-fault-proxy): it must end on
    it within FAULT_ENDING, exit 1, and name it, where a run left alone goes on for 20 s and exits 0."""
    log = open(os.path.join(out, name + ".fault")).read() if os.path.exists(os.path.join(out, name + ".fault")) else ""
    sent = re.search(r"error sent ([0-9.]+)", log)
    closed = re.search(r"client closed ([0-9.]+)", log)
    if not sent:
        return [f"the error was never sent (exit {rc}: " + " | ".join(text.strip().splitlines()[-2:])[:160] + ")"], ""
    problems = []
    ended = float(closed.group(1)) - float(sent.group(1)) if closed else None
    if ended is None or ended > FAULT_ENDING:
        problems.append("did not end on the error" + (f" ({ended:.2f} s after it)" if ended is not None else ""))
    if rc != 1:
        problems.append(f"exit {rc}, not 1")
    said = re.search(r"(closed the connection on a protocol error \(wl_display error 3[^)]*\))", text)
    if not said:
        problems.append("the protocol error is not named: " + " | ".join(text.strip().splitlines()[-1:])[:160])
    return problems, (f"ended {ended:.2f} s after the error" if ended is not None else "") + (
        f"; said: {said.group(1)}" if said else "")


def last_words(text):
    """What a run said last, and any fault SDL reported on the way (for a run that had to be stopped)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    sdl = [line for line in lines if "(fatal)" in line or line.startswith("wl_display")]
    said = [line for line in lines if line.startswith(("spinning-sprite:", "template:"))] or lines[-1:]
    return " | ".join(dict.fromkeys(sdl[:1] + said[-2:]))[:400] or "nothing"


def judge(out, name, done_when, facts):
    """(problems, figures in words) of one run; its figures for the table go in `facts`."""
    text = open(os.path.join(out, name + ".out"), errors="replace").read()
    rc = int(open(os.path.join(out, name + ".rc")).read().strip() or 1)
    problems, figures = [], []
    if rc in (124, 137):
        return [f"did not end in time (exit {rc}); its last words: " + last_words(text)], "hang"
    if FAULT.match(name):
        return judge_fault(out, name, text, rc)
    refused = rc != 0 and re.search(r"wl_seat|refus|cannot start", text)
    if refused:
        facts["refused"] = True
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
            words = clock.group(1)
            if "native" in name and "Wayland presentation-time" not in words:
                problems.append("natively the clock is not the compositor's feedback")
            if "xwayland" in name and ("estimated" not in words
                                       or ("present returns" in words and "(X Present" not in words)):
                problems.append("through XWayland the clock does not say it is estimated, and why")
        trace = os.path.join(out, name + ".csv")
        if os.path.exists(trace):
            measured, early, fps, work = judge_trace(trace)
            figures.append(f"measured {measured}, early {early}" + (f", glass {fps:.2f} FPS" if fps else ""))
            if early > max(0, measured // 100):
                problems.append(f"{early} of {measured} measured frames on the glass before their target")
            facts["early"] = early
            rate = fps or (figs and figs[1])
            if (name.endswith("fps0") and figs and rate and abs(rate - DISPLAY_HZ / 2) < 1.5 and figs[2] * 3 > figs[0]
                    and (work is None or work <= 1 / DISPLAY_HZ)):
                facts["half"] = True
                problems.append(f"locked at half rate ({rate:.2f} FPS, {figs[2]} of {figs[0]} late, "
                                f"the frames' own work {work * 1000 if work is not None else float('nan'):.1f} ms)")
        elif rc == 0:
            problems.append("no trace")
        wanted = SAMPLE.match(name)
        if figs and wanted:
            target = float(wanted.group(3)) or DISPLAY_HZ
            facts["error"] = abs(figs[1] - target) / target * 100
            facts["late"] = figs[2] / figs[0] * 100 if figs[0] else 100.0
            if done_when and facts["error"] > 1:
                problems.append(f"achieved {figs[1]:.2f} FPS, {facts['error']:.2f}% from {target:g}")
            if done_when and facts["late"] > 1:
                problems.append(f"{facts['late']:.1f}% of frames late")
    return problems, "; ".join(figures)


def table(results):
    """Per compositor, path and rate: runs held, worst FPS error and late share, early and half-rate runs."""
    groups = {}
    for name, problems, facts in results:
        wanted = SAMPLE.match(name)
        if wanted:
            groups.setdefault(wanted.groups(), []).append((problems, facts))
    if not groups:
        return
    print(f"  {'compositor':10} {'path':9} {'fps':>4} {'held':>7} {'worst FPS err':>14} {'worst late':>11} {'early':>6} {'half rate':>10}")
    for (kind, path, fps), runs in sorted(groups.items()):
        errors = [f["error"] for _, f in runs if "error" in f]
        lates = [f["late"] for _, f in runs if "late" in f]
        worst = lambda xs: f"{max(xs):.2f}%" if xs else "-"
        print(f"  {kind:10} {path:9} {fps:>4} {sum(not p for p, _ in runs):>3} of {len(runs):<2} {worst(errors):>14} "
              f"{worst(lates):>11} {sum(f.get('early', 0) for _, f in runs):>6} {sum(bool(f.get('half')) for _, f in runs):>10}")


def main():
    args = sys.argv[1:]
    done_when = args[:1] == ["--done-when"]
    args = args[1:] if done_when else args
    if len(args) != 1:
        print("usage: Scripts/desktop_lab_judge.py [--done-when] OUT", file=sys.stderr)
        return 64
    out = args[0]
    names = sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(out, "*.rc")))
    if not names:
        print(f"desktop-lab: no runs in {out}", file=sys.stderr)
        return 66
    failed, results = 0, []
    for name in names:
        facts = {}
        problems, figures = judge(out, name, done_when, facts)
        print(f"  {name:38} {'FAILED' if problems else 'ok':6} {figures}")
        for p in problems:
            print(f"      {p}")
        failed += bool(problems)
        results.append((name, problems, facts))
    table(results)
    print(f"desktop-lab: {len(names) - failed} of {len(names)} runs held" + (" (done-when judged)" if done_when else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
