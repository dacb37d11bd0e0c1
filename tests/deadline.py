"""A hard time limit for a test of hostile input: a hang fails that test (TimeoutError)
instead of stopping the whole run."""

import signal
from contextlib import contextmanager


@contextmanager
def within(seconds: float):
    """Raise TimeoutError in the main thread if the block runs longer than ``seconds``."""

    def expired(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
