"""A time limit for the tests of hostile input: the code under test answers (a result or its
error) within a few seconds, or the test fails rather than hang the suite.

``SIGALRM`` stops Python code with a TimeoutError (the test fails normally); a hang inside
one C call (expanding ``10**999999999``) never returns to Python, so faulthandler's
watchdog thread then dumps every thread's traceback and ends the run a few seconds later."""

import faulthandler
import signal
import sys
from contextlib import contextmanager

#: Seconds an answer to hostile input may take: parsing and checking are instant; the limit
#: leaves room for a loaded 2-core machine, and is far below what the work would take.
LIMIT = 3


@contextmanager
def deadline(seconds: float = LIMIT):
    def expired(signum, frame):
        raise TimeoutError(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    faulthandler.dump_traceback_later(seconds + 10, exit=True, file=sys.__stderr__)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        faulthandler.cancel_dump_traceback_later()
