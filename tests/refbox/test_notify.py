import socket

from refbox.notify import Notifier, Watchdog


def listen(tmp_path):
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    return sock, path


def test_ready_is_sent_to_notify_socket(tmp_path):
    sock, path = listen(tmp_path)
    n = Notifier({"NOTIFY_SOCKET": path})
    n.ready("pig: 3 events")
    assert sock.recv(100) == b"READY=1\nSTATUS=pig: 3 events"


def test_not_under_systemd_sends_nothing():
    assert Notifier({}).send("READY=1") is False


def test_watchdog_pings_only_while_the_loop_turns(tmp_path):
    sock, path = listen(tmp_path)
    n = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "40000"})
    counter = {"ticks": 0}

    def progress():
        counter["ticks"] += 1  # a turning loop
        return counter["ticks"]

    dog = Watchdog(n, progress)
    dog.start()
    assert sock.recv(100) == b"WATCHDOG=1"
    dog.stop()
    dog.join()

    hung = Watchdog(n, lambda: 7)  # a loop that no longer turns
    hung.start()
    sock.settimeout(0.3)
    try:
        got = sock.recv(100)
    except socket.timeout:
        got = None
    hung.stop()
    hung.join()
    assert got is None and hung.pings == 0
