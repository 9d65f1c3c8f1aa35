"""A private desktop for one bench run: started by Scripts/desktop, stopped as a
whole; the benches' answer to a stop signal; and the one clock that times every
contender's frames alike (Programs/Bench/present_stamp.c).

Shared by Scripts/bench-precision, Scripts/bench-cost and Scripts/bench-recovery,
which import it from this folder.
"""
import argparse, os, signal, statistics, subprocess, sys, time

class Arguments(argparse.ArgumentParser):
    """argparse, with a usage error's exit status 64 (sysexits.h), as every program here."""
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"{self.prog}: {message}", file=sys.stderr)
        sys.exit(64)

class Stopped(Exception):
    """A stop signal (SIGINT, SIGTERM, SIGHUP) came: the bench ends with what it measured so far."""

def stop_on_signals():
    """Turns the stop signals into `Stopped`, raised where the bench is; a second
    signal is then ignored, so that the clean-up it triggers runs to its end."""
    def handler(number, _frame):
        for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(s, signal.SIG_IGN)
        raise Stopped(signal.Signals(number).name)
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, handler)

def tied_to_me(command):
    """`command`, killed by the kernel when this process ends, however it ends (even by SIGKILL)."""
    return ["setpriv", "--pdeathsig", "KILL"] + command

def end(process, grace=5):
    """Ends a child: SIGTERM, SIGKILL after `grace` seconds; waits for it."""
    if process.poll() is None:
        process.terminate()
        try: process.wait(timeout=grace)
        except subprocess.TimeoutExpired: process.kill(); process.wait()

def start(kind, name, directory, extra, program, preload=None):
    """Starts a desktop of `kind` (xvfb or weston) called `name`, its files in
    `directory`; returns its process group and the environment a client needs,
    with `preload` (`build_present_stamp`'s library) in LD_PRELOAD where given:
    MangoHud's script appends its own library there, so the stamps' comes
    first for every contender. `program` names the caller in the message when
    it does not start. Stopped while starting, Scripts/desktop is ended with
    SIGTERM, which stops the desktop it was starting."""
    starter = subprocess.Popen([os.path.join(os.path.dirname(os.path.abspath(__file__)), "desktop"), kind, name, directory] + extra,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = starter.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        end(starter, 30)
        sys.exit(f"{program}: {kind} did not start within 60 s")
    except BaseException:
        end(starter, 30)
        raise
    if starter.returncode != 0:
        sys.exit(f"{program}: {kind} did not start: {err.strip()}")
    env = dict(line.split("=", 1) for line in out.split())
    if preload: env["LD_PRELOAD"] = preload
    return int(env.pop("PID")), env

def stop_group(pid):
    """Ends the desktop's process group: woken first (a starved server sits
    stopped and would not see SIGTERM), then SIGTERM, and SIGKILL for anything
    left after 3 s. An X server killed so leaves its socket and lock, which
    name its pid: those are removed too."""
    for sig in (signal.SIGCONT, signal.SIGTERM):
        try: os.killpg(pid, sig)
        except ProcessLookupError: return
    for _ in range(30):
        time.sleep(0.1)
        try: os.killpg(pid, 0)
        except ProcessLookupError: return
    try: os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError: pass
    time.sleep(0.2)
    for name in os.listdir("/tmp"):
        if not (name.startswith(".X") and name.endswith("-lock")): continue
        try: holder = int(open(f"/tmp/{name}").read().strip())
        except (OSError, ValueError): continue
        if holder != pid: continue
        for path in (f"/tmp/.X11-unix/X{name[2:-5]}", f"/tmp/{name}"):
            try: os.remove(path)
            except OSError: pass

def build_present_stamp(work, program):
    """Builds Programs/Bench/present_stamp.c into `work`; the library's path, for
    LD_PRELOAD. It stamps the moment each frame's pixels leave for the X server
    (see its header), the same event for every contender, however each one paces."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    library = os.path.join(work, "present_stamp.so")
    built = subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", library,
                            os.path.join(root, "Programs/Bench/present_stamp.c"), "-ldl"],
                           capture_output=True, text=True, timeout=120)
    if built.returncode != 0:
        sys.exit(f"{program}: cannot build Programs/Bench/present_stamp.c: {built.stderr.strip()[-400:]}")
    return library

def interval_figures(times, cap, program):
    """(p50 ms, p99 ms, FPS) of the intervals between `times` (s) after the first
    second: each interval's error from 1/cap, or with no cap from the run's median
    interval (the display's own); exits when fewer than ten are left."""
    start = times[0] + 1
    kept = [t for t in times if t >= start]
    intervals = [b - a for a, b in zip(kept, kept[1:])]
    if len(intervals) < 10:
        sys.exit(f"{program}: fewer than ten intervals after the first second")
    period = 1 / cap if cap else statistics.median(intervals)
    errors = sorted(abs(i - period) * 1000 for i in intervals)
    rank = lambda q: errors[min(len(errors) - 1, int(q * len(errors)))]
    return rank(0.5), rank(0.99), len(intervals) / (kept[-1] - kept[0])

def present_stamps(path, presents, what, program):
    """The times (s) `build_present_stamp`'s library wrote to `path`; exits when it
    stamped fewer than half of `presents` (Mesa sent the frames some other way)."""
    try:
        stamps = [int(x) / 1e9 for x in open(path).read().split()]
    except OSError:
        stamps = []
    if len(stamps) < presents // 2:
        sys.exit(f"{program}: {what}: {len(stamps)} frames stamped as sent for {presents} presents "
                 "(does Mesa send them another way than XShmPutImage or XPutImage here?)")
    return stamps
