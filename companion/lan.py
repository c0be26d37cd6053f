"""This machine's addresses on the local network, for `make run` to print and accept.

Found without sending anything: the interfaces as ``ip`` lists them (Linux),
the addresses the host name resolves to, and the source address the kernel
would pick for a private destination (a UDP socket's ``connect`` only chooses
a route; no packet leaves the machine). No Django import: the launcher uses it
before the server starts.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import subprocess

# Interfaces of containers and virtual machines: their addresses are accepted,
# but a phone cannot reach them, so they are not offered.
VIRTUAL_INTERFACES = re.compile(r"^(docker|br-|veth|virbr|vboxnet|vmnet|cni|flannel|tun|tap)")
_IP_LINE = re.compile(r"^\d+:\s+(?P<name>\S+)\s+inet\s+(?P<address>[\d.]+)/")


def is_loopback(host: str) -> bool:
    """True for 127.0.0.1, ::1, localhost and the like.

    >>> [is_loopback(h) for h in ("127.0.0.1", "[::1]", "localhost", "192.168.1.20")]
    [True, True, True, False]
    """
    host = host.strip("[]")
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    """True for the addresses that mean "every interface": 0.0.0.0, :: (or empty)."""
    return host.strip("[]") in {"", "0.0.0.0", "::"}


def usable(address: str) -> bool:
    """An IPv4 address another device could connect to.

    >>> [usable(a) for a in ("192.168.1.20", "10.0.0.7", "127.0.1.1", "169.254.3.4", "0.0.0.0")]
    [True, True, False, False, False]
    """
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def parse_ip_addr(output: str) -> list[tuple[str, str]]:
    """(interface, address) pairs from ``ip -o -4 addr show`` output.

    >>> parse_ip_addr('''1: lo    inet 127.0.0.1/8 scope host lo
    ... 2: wlp3s0    inet 192.168.178.23/24 brd 192.168.178.255 scope global dynamic wlp3s0
    ... 3: docker0    inet 172.17.0.1/16 brd 172.17.255.255 scope global docker0''')
    [('lo', '127.0.0.1'), ('wlp3s0', '192.168.178.23'), ('docker0', '172.17.0.1')]
    """
    pairs = []
    for line in output.splitlines():
        match = _IP_LINE.match(line.strip())
        if match:
            pairs.append((match["name"], match["address"]))
    return pairs


def _from_interfaces() -> list[tuple[str, str]]:
    try:
        result = subprocess.run(
            ["ip", "-o", "-4", "addr", "show", "up"],
            capture_output=True, text=True, timeout=5, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return []
    return parse_ip_addr(result.stdout) if result.returncode == 0 else []


def _from_host_name() -> list[str]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return [str(info[4][0]) for info in infos]


def _from_route() -> list[str]:
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 9))  # UDP: picks a route, sends nothing
        return [str(probe.getsockname()[0])]
    except OSError:
        return []
    finally:
        probe.close()


def addresses() -> tuple[list[str], list[str]]:
    """(addresses to offer, further addresses to accept) of this machine, IPv4, in order
    found; loopback and link-local left out, virtual bridges only accepted."""
    offered: list[str] = []
    accepted: list[str] = []
    interfaces = _from_interfaces()
    for name, address in interfaces:
        if usable(address):
            (accepted if VIRTUAL_INTERFACES.match(name) else offered).append(address)
    if not interfaces:
        offered.extend(a for a in _from_host_name() + _from_route() if usable(a))
    offered = list(dict.fromkeys(offered))
    accepted = [a for a in dict.fromkeys(accepted) if a not in offered]
    return offered, accepted
