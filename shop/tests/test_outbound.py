"""No outside service is called while a database transaction is open, and each call is bounded as a whole
(shop.outbound)."""

import socket
import threading
import time

import pytest
from django.db import transaction

from shop.outbound import DeadlinePassed, TransactionHeld, call_within, outside_transaction

pytestmark = pytest.mark.django_db


def test_a_call_inside_a_transaction_is_refused():
    with transaction.atomic(), pytest.raises(TransactionHeld, match="Paymob called inside"):
        outside_transaction("Paymob")


def test_a_call_outside_any_transaction_goes_ahead():
    outside_transaction("Paymob")  # the test case's own transaction does not count


def test_a_call_within_its_time_gives_its_answer_or_its_own_error():
    assert call_within(1, "a service", lambda a, *, b: a + b, 1, b=2) == 3
    with pytest.raises(ZeroDivisionError):
        call_within(1, "a service", lambda: 1 / 0)
    # a socket's own timeout (a TimeoutError too) is the call's error, not the time limit's
    with pytest.raises(socket.timeout) as raised:
        call_within(1, "a service", lambda: (_ for _ in ()).throw(socket.timeout("timed out")))
    assert not isinstance(raised.value, DeadlinePassed)


def test_a_call_past_its_time_is_given_up_at_the_limit():
    # given a call that would take 2 s
    release = threading.Event()
    started = time.monotonic()
    # when / then the caller hears DeadlinePassed at the limit, not at the call's end
    with pytest.raises(DeadlinePassed, match="a slow service gave no whole answer within 0.3 s"):
        call_within(0.3, "a slow service", release.wait, 2)
    assert time.monotonic() - started < 0.3 + 0.5
    release.set()


def test_no_time_left_is_given_up_without_calling():
    called = []
    with pytest.raises(DeadlinePassed):
        call_within(0, "a service", called.append, 1)
    assert called == []


def test_a_process_forked_after_a_call_still_makes_its_calls():
    # given a call made before the fork (its pool holds an idle thread, which the child will not have)
    import os

    assert call_within(1, "a service", lambda: "parent") == "parent"
    reading, writing = os.pipe()
    # when a child process calls the same service
    child = os.fork()
    if child == 0:  # pragma: no cover (the child)
        try:
            answer = call_within(1, "a service", lambda: "child")
        except BaseException as exc:  # noqa: BLE001 - any failure is the test's answer
            answer = type(exc).__name__
        os.write(writing, answer.encode())
        os._exit(0)
    os.close(writing)
    os.waitpid(child, 0)
    # then it is answered, not given up waiting on a thread that is gone
    assert os.read(reading, 100).decode() == "child"
    os.close(reading)


def test_as_many_calls_at_once_as_the_process_has_request_threads_never_queue(settings):
    # given a process serving 6 requests at once (WEB_THREADS=6: OUTBOUND_THREADS 10), each calling a healthy
    # service that answers once all six calls have reached it (they are all being served at once)
    settings.OUTBOUND_THREADS = 6 + 4
    all_in = threading.Barrier(6, timeout=3)
    answers: list[object] = []

    def request():
        try:
            answers.append(call_within(5, "a busy service", all_in.wait))
        except (DeadlinePassed, threading.BrokenBarrierError) as exc:
            answers.append(exc)

    # when the 6 requests call it at once
    requests = [threading.Thread(target=request) for _ in range(6)]
    for thread in requests:
        thread.start()
    for thread in requests:
        thread.join()
    # then each has its answer: none waited for another's thread (with 4 threads, two would have)
    assert sorted(answers) == [0, 1, 2, 3, 4, 5]
