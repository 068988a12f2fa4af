"""mqtts:// end to end: the host and a player reach Mosquitto over TLS, verifying its
certificate (a test CA given through SSL_CERT_FILE, as an operator would)."""

from __future__ import annotations

import datetime
import getpass
import ipaddress
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from netkit import MOSQUITTO, MosquittoProcess, RunningHost, seat_table, step

from shared.bots.random_bot import RandomBot


def write_pki(folder: Path) -> tuple[Path, Path, Path]:
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "bang test CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(1)
          .not_valid_before(now - datetime.timedelta(days=1))
          .not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(2)
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .sign(ca_key, hashes.SHA256()))
    paths = folder / "ca.crt", folder / "server.crt", folder / "server.key"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return paths


async def test_a_game_over_mqtts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if MOSQUITTO is None:
        pytest.skip("the mosquitto binary is not installed (Debian package `mosquitto`)")
    ca, cert, key = write_pki(tmp_path)
    broker = MosquittoProcess(tmp_path)
    broker.conf.write_text(
        f"listener {broker.port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
        f"cafile {ca}\ncertfile {cert}\nkeyfile {key}\nuser {getpass.getuser()}\n"
    )
    broker.start()
    monkeypatch.setenv("SSL_CERT_FILE", str(ca))
    url = f"mqtts://127.0.0.1:{broker.port}"
    host = RunningHost(url, tmp_path / "host.sqlite3")
    await host.start()
    try:
        table, room = await seat_table(url, tmp_path, turn_timeout=0)
        bots = [RandomBot(i) for i in range(4)]
        while await step(table, room, bots):
            pass
        assert host.host.rooms[room].state.winner is not None
        for player in table:
            await player.close()
    finally:
        await host.stop()
        broker.stop()
