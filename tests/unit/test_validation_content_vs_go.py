"""kgen.runtime.apimachinery.validation.content against apimachinery itself (hack/oracle/utilvalidation):
the same strings (and port numbers) through each ``is_*`` check and through Go's function of the
same name, the messages compared word for word. The built-in kinds' validators quote these
messages, so a difference here is a wrong 422 cause there.

The corpus (seeded): edge cases by hand (empty, lengths at and past the limits, dots, slashes,
wildcards, trailing newlines, non-ASCII), random strings over an alphabet of the characters the
rules care about, and generated IPs and CIDRs (leading zeros, out-of-range octets, IPv4-mapped
IPv6, zone suffixes, prefix lengths past the family's bits, bits beyond the prefix). Also Go's
encoding/json error for a JSON object (kgen.runtime.apimachinery.golang.gojson) on bad and cut
JSON, the text the apiserver quotes for a Secret's malformed ``.dockerconfigjson``."""

from __future__ import annotations

import base64
import json
import random
import subprocess
from collections.abc import Callable
from typing import Any

from kgen.runtime.apimachinery.golang import gojson
from kgen.runtime.apimachinery.validation import content
from tests.support.oracle import oracle_binary

SEED = 35
RANDOM_PER_FUNCTION = 400

STRING_CHECKS: dict[str, Callable[[str], list[str]]] = {
    "is_dns1123_label": content.is_dns1123_label,
    "is_dns1123_subdomain": content.is_dns1123_subdomain,
    "is_dns1035_label": content.is_dns1035_label,
    "is_wildcard_dns1123_subdomain": content.is_wildcard_dns1123_subdomain,
    "is_qualified_name": content.is_qualified_name,
    "is_label_value": content.is_label_value,
    "is_config_map_key": content.is_config_map_key,
    "is_valid_port_name": content.is_valid_port_name,
    "is_path_segment_name": content.is_path_segment_name,
    "is_valid_ip_legacy": content.is_valid_ip_legacy,
    "is_valid_ip_legacy_sloppy": lambda s: content.is_valid_ip_legacy(s, strict=False),
    "is_valid_cidr_legacy": content.is_valid_cidr_legacy,
    "is_valid_cidr_legacy_sloppy": lambda s: content.is_valid_cidr_legacy(s, strict=False),
}
IP_CHECKS = {name for name in STRING_CHECKS if "_ip_" in name or "_cidr_" in name}

EDGES = [
    "", "a", "A", "0", "-", ".", "..", "..a", "a..b", "a.b", "a-b", "-a", "a-", "a_b", "_a", "a/b", "/a", "a/", "a/b/c",
    "example.com/Name", "example.com/", "Example.com/name", "*.example.com", "*", "*.", "a.*.com", "**.com", "*.a",
    "a\n", "a\nb", " a", "a b", "é", "ab%2f", "a%b", "key.name", "KEY_NAME", "key-name", "http", "http--x", "x--",
    "1234", "123456789012345", "1234567890123456", "abcdefghijklmnop", "a" * 63, "a" * 64, "a" * 253, "a" * 254,
    ("a" * 63 + ".") * 3 + "a" * 61, ("a" * 63 + ".") * 4, "p" * 253 + "/n", "a.b/" + "n" * 63, "a.b/" + "n" * 64,
]
IP_EDGES = [
    "", "1.2.3.4", "01.2.3.4", "1.2.3.04", "0.0.0.0", "255.255.255.255", "256.1.1.1", "1.2.3", "1.2.3.4.5", "1.2.3.4 ",
    "::", "::1", "fe80::1", "FE80::0ABC", "fe80::1%eth0", "::ffff:1.2.3.4", "::ffff:01.2.3.4", "2001:db8::/64",
    "1.2.3.0/24", "1.2.3.4/24", "1.2.3.0/024", "1.2.3.0/33", "1.2.3.0/", "/24", "10.0.0.0/8", "::/0", "::/129",
    "::ffff:1.2.3.0/120", "2001:db8::1/64", "2001:DB8::/32", "1.2.3.0/+8", "1.2.3.0/ 8", "0x1.2.3.4", "1.2.3.4/32",
]


def _random_strings(rng: random.Random, n: int) -> list[str]:
    alphabet = "abcxyzABZ0129-._/*%: \n"
    out = []
    for _ in range(n):
        length = rng.choice([rng.randint(0, 12), rng.randint(55, 70), rng.randint(245, 260)])
        out.append("".join(rng.choice(alphabet) for _ in range(length)))
    return out


def _random_ips(rng: random.Random, n: int) -> list[str]:
    def octet() -> str:
        return rng.choice([str(rng.randint(0, 255)), f"0{rng.randint(0, 99)}", str(rng.randint(256, 999))])

    def v6() -> str:
        groups = [f"{rng.randint(0, 0xffff):x}" for _ in range(rng.choice([8, 3]))]
        return ":".join(groups) if len(groups) == 8 else "::".join([":".join(groups[:2]), groups[2]])

    out = []
    for _ in range(n):
        ip = rng.choice([".".join(octet() for _ in range(4)), v6(), "::ffff:" + ".".join(octet() for _ in range(4))])
        if rng.random() < 0.5:
            ip += "/" + rng.choice([str(rng.randint(0, 130)), f"0{rng.randint(0, 32)}"])
        out.append(ip)
    return out


JSON_EDGES = [
    b"", b" ", b"{}", b"{", b"}", b'{"a": 1}', b'{"a" 1}', b'{"a": 1,}', b'{"a": 1 "b": 2}', b"[]", b"[1,]", b"[1 2]",
    b'"s"', b"1", b"-", b"-a", b"01", b"1.", b"1.e5", b"1e", b"1e+", b"tru", b"trux", b"nul", b"null", b"true", b"false",
    b"{} x", b"{}}", rb'{"a\x": 1}', rb'{"a\u12g4": 1}', rb'{"\n\t\u00e9": 1}', b'{"a\x01": 1}', b"{'a': 1}",
    b"\xc3\xa9", b"\x80", b"\x7f", b'{"auths": {}}', b"auths: {}", b'{"a": [1, {"b": null}], "c": -1.5e-3}', b"[[[",
]


def _random_json(rng: random.Random, n: int) -> list[bytes]:
    pieces = ["{", "}", "[", "]", '"a"', '"', ":", ",", " ", "1", "-", ".", "e", "0", "true", "nul", "\\", "\\u", "x", "'"]
    out = []
    for _ in range(n):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 12)))
        valid = json.dumps({"k": [1, {"v": text}]})
        cut = rng.randint(0, len(valid))
        out += [text.encode(), valid[:cut].encode(), (valid[:cut] + rng.choice(pieces) + valid[cut:]).encode()]
    return out


def _go_answers(cases: list[dict[str, Any]]) -> list[list[str]]:
    done = subprocess.run([str(oracle_binary("utilvalidation"))], input="".join(json.dumps(c) + "\n" for c in cases),
                          capture_output=True, text=True, timeout=120, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


def _differences(checks: dict[str, Callable[[str], list[str]]],
                 json_map: Callable[[bytes], str | None] = gojson.map_unmarshal_error) -> tuple[int, list[str]]:
    rng = random.Random(SEED)
    cases: list[dict[str, Any]] = []
    for name in sorted(checks):
        corpus = (IP_EDGES + _random_ips(rng, RANDOM_PER_FUNCTION) if name in IP_CHECKS
                  else EDGES + _random_strings(rng, RANDOM_PER_FUNCTION))
        cases += [{"fn": name, "s": s} for s in corpus]
    ports = [-1, 0, 1, 80, 65535, 65536, 70000]
    cases += [{"fn": "is_valid_port_num", "n": n} for n in ports]
    cases += [{"fn": "json_map", "b": base64.b64encode(b).decode()} for b in JSON_EDGES + _random_json(rng, RANDOM_PER_FUNCTION)]
    differences = []
    for case, go in zip(cases, _go_answers(cases), strict=True):
        if case["fn"] == "json_map":
            problem = json_map(base64.b64decode(case["b"]))
            ours = [] if problem is None else [problem]
        elif case["fn"] == "is_valid_port_num":
            ours = content.is_valid_port_num(case["n"])
        else:
            ours = checks[case["fn"]](case["s"])
        if ours != go:
            differences.append(f"{case}: go {go}, kgen {ours}")
    return len(cases), differences


def test_content_checks_say_what_apimachinery_says() -> None:
    total, differences = _differences(STRING_CHECKS)
    print(f"\ncontent checks vs apimachinery: {total} cases, {len(differences)} differences")
    assert total > 5000
    assert differences == [], "\n".join(differences[:20])


def test_the_comparison_sees_a_planted_difference() -> None:
    """A label check that forgets the length limit, and Python's json words, must show up."""
    planted = dict(STRING_CHECKS, is_dns1123_label=lambda s: content.is_dns1123_label(s[:63]))
    _total, differences = _differences(planted)
    assert differences and all("is_dns1123_label" in d for d in differences)

    def python_words(data: bytes) -> str | None:
        try:
            json.loads(data)
        except ValueError as exc:
            return str(exc)
        return None

    _total, differences = _differences(STRING_CHECKS, python_words)
    assert differences and all("json_map" in d for d in differences)
