"""A real Mosquitto broker per test, on a free loopback port, killed at teardown.

CI installs mosquitto (scripts/setup.sh); without it these tests fail, they do not skip.
"""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
from tests.support import wait_until

MOSQUITTO = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]




class Mosquitto:
    """One broker process; ``stop`` and ``start`` again keep the same port (a broker restart)."""

    def __init__(self, workdir: Path, *, users: dict[str, str] | None = None, tls: dict[str, Path] | None = None) -> None:
        if MOSQUITTO is None:
            pytest.fail("mosquitto is not installed: the club tests need a real MQTT broker "
                        "(apt-get install mosquitto; scripts/setup.sh test does it)")
        self.port = free_port()
        self.workdir = workdir
        self.log = workdir / "mosquitto.log"
        lines = [f"listener {self.port} 127.0.0.1", "persistence false", f"user {getpass.getuser()}",
                 f"log_dest file {self.log}", "log_type error", "log_type warning", "log_type notice"]
        if users is None:
            lines.append("allow_anonymous true")
        else:
            pwfile = workdir / "passwd"
            for i, (user, password) in enumerate(users.items()):
                args = [MOSQUITTO_PASSWD, "-b"] + (["-c"] if i == 0 else []) + [str(pwfile), user, password]
                subprocess.run(args, check=True, capture_output=True)
            pwfile.chmod(0o600)
            lines += ["allow_anonymous false", f"password_file {pwfile}"]
        if tls is not None:
            lines += [f"cafile {tls['ca']}", f"certfile {tls['cert']}", f"keyfile {tls['key']}"]
        self.conf = workdir / "mosquitto.conf"
        self.conf.write_text("\n".join(lines) + "\n")
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> "Mosquitto":
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

        def listening() -> bool:
            assert self.proc is not None
            if self.proc.poll() is not None:
                out = self.proc.stdout.read().decode() if self.proc.stdout else ""
                log = self.log.read_text() if self.log.exists() else ""
                pytest.fail(f"mosquitto exited with {self.proc.returncode}: {out}{log}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return True
            except OSError:
                return False

        assert wait_until(listening, 10), f"mosquitto did not listen on port {self.port}"
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self.proc is not None and self.proc.stdout:
            self.proc.stdout.close()
        self.proc = None


@pytest.fixture
def broker(tmp_path):
    b = Mosquitto(tmp_path).start()
    yield b
    b.stop()


@pytest.fixture
def auth_broker(tmp_path):
    if MOSQUITTO is None:
        pytest.fail("mosquitto is not installed: the club tests need a real MQTT broker "
                    "(apt-get install mosquitto; scripts/setup.sh test does it)")
    if MOSQUITTO_PASSWD is None:
        pytest.skip("mosquitto_passwd is not installed, so no broker with a password file can be made "
                    "(it ships with the mosquitto package)")
    b = Mosquitto(tmp_path, users={"table-1": "s3cret-Pa55word", "club": "club-pw-XYZ"}).start()
    yield b
    b.stop()


def make_certificates(workdir: Path) -> dict[str, Path]:
    """A private CA and a server certificate for 127.0.0.1 / localhost, made with openssl."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is not installed, so no certificates for a TLS broker can be made")
    d = workdir / "tls"
    d.mkdir()
    run = lambda *args: subprocess.run([openssl, *args], check=True, capture_output=True, cwd=d)  # noqa: E731
    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Refbox test CA",
        "-keyout", "ca.key", "-out", "ca.pem")
    run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout", "server.key", "-out", "server.csr")
    (d / "san.ext").write_text("subjectAltName = IP:127.0.0.1, DNS:localhost\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
        "-extfile", "san.ext", "-out", "server.pem")
    (d / "server.key").chmod(0o600)
    return {"ca": d / "ca.pem", "cert": d / "server.pem", "key": d / "server.key"}


@pytest.fixture
def tls_broker(tmp_path):
    if MOSQUITTO is None:
        pytest.fail("mosquitto is not installed: the club tests need a real MQTT broker "
                    "(apt-get install mosquitto; scripts/setup.sh test does it)")
    certs = make_certificates(tmp_path)
    b = Mosquitto(tmp_path, tls=certs).start()
    b.certs = certs
    yield b
    b.stop()
