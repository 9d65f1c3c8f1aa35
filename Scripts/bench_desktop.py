"""A private desktop for one bench run: started by Scripts/desktop, stopped as a whole.

Shared by Scripts/bench-precision and Scripts/bench-recovery, which import it
from this folder.
"""
import os, signal, subprocess, sys, time

def start(kind, name, directory, extra, program):
    """Starts a desktop of `kind` (xvfb or weston) called `name`, its files in
    `directory`; returns its process group and the environment a client needs.
    `program` names the caller in the message when it does not start."""
    try:
        out = subprocess.run(["Scripts/desktop", kind, name, directory] + extra,
                             capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        sys.exit(f"{program}: {kind} did not start within 60 s")
    if out.returncode != 0:
        sys.exit(f"{program}: {kind} did not start: {out.stderr.strip()}")
    env = dict(line.split("=", 1) for line in out.stdout.split())
    return int(env.pop("PID")), env

def stop_group(pid):
    """Ends the desktop's process group: woken first (a starved server sits
    stopped and would not see SIGTERM), killed if anything is left after 0.5 s."""
    for sig in (signal.SIGCONT, signal.SIGTERM):
        try: os.killpg(pid, sig)
        except ProcessLookupError: return
    time.sleep(0.5)
    try: os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError: pass
