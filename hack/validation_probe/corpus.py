"""The CEL corpus: rules CRD authors write, each with the values it is tried on.

A case is one property of a probe CRD carrying one ``x-kubernetes-validations`` rule. Its
samples are the values it is tried on; the verdict for each sample is not written here: the
probe measures it on the real apiserver (server-side dry-run) at run time.

Strings, lists and maps carry maxLength/maxItems/maxProperties, as real CRDs must: without them
the apiserver's static cost estimate rejects most rules at CRD creation (the ``cost`` group shows
that on purpose).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Schema = dict[str, Any]

S: Schema = {"type": "string", "maxLength": 64}
I: Schema = {"type": "integer"}
N: Schema = {"type": "number"}
B: Schema = {"type": "boolean"}


def L(items: Schema, max_items: int = 8, **extra: Any) -> Schema:
    return {"type": "array", "items": items, "maxItems": max_items, **extra}


def M(values: Schema, max_properties: int = 8) -> Schema:
    return {"type": "object", "additionalProperties": values, "maxProperties": max_properties}


def O(**properties: Schema) -> Schema:
    return {"type": "object", "properties": properties}


@dataclass(frozen=True)
class Case:
    """One rule on one property, and the values (samples) it is tried on.

    ``at`` places the rule on the property itself (``self``), on its list items (``items``) or on
    its map values (``values``): the apiserver then reports the item's or the value's path.
    ``transition`` cases take (old, new) pairs: the object is created with old, then a dry-run
    update sends new, so ``oldSelf`` is bound. ``alone`` cases go in objects of their own (a
    rule that exhausts the cost budget stops every later rule of the same object).
    """

    group: str
    rule: str
    schema: Schema
    samples: tuple[Any, ...]
    message: str | None = None
    message_expression: str | None = None
    field_path: str | None = None
    reason: str | None = None
    optional_old_self: bool | None = None
    at: str = "self"
    transition: bool = False
    alone: bool = False
    note: str = ""
    extra_schema: Schema = field(default_factory=dict)

    def validation(self) -> dict[str, Any]:
        v: dict[str, Any] = {"rule": self.rule}
        for key, value in (
            ("message", self.message),
            ("messageExpression", self.message_expression),
            ("fieldPath", self.field_path),
            ("reason", self.reason),
            ("optionalOldSelf", self.optional_old_self),
        ):
            if value is not None:
                v[key] = value
        return v


def _c(group: str, rule: str, schema: Schema, *samples: Any, **kw: Any) -> Case:
    return Case(group=group, rule=rule, schema=schema, samples=tuple(samples), **kw)


INT64_MAX = 9223372036854775807
INT64_MIN = -9223372036854775808

CASES: list[Case] = [
    # -- comparisons ------------------------------------------------------------------------
    _c("compare", "self > 0", I, 1, 0, -5),
    _c("compare", "self.min <= self.max", O(min=I, max=I), {"min": 1, "max": 2}, {"min": 3, "max": 2}),
    _c("compare", "self == 'fixed'", S, "fixed", "other"),
    _c("compare", "self != ''", S, "x", ""),
    _c("compare", "self in ['a', 'b']", S, "a", "c"),
    _c("compare", "self.i < self.d", O(i=I, d=N), {"i": 1, "d": 1.5}, {"i": 2, "d": 1.5}, note="int < double (CrossTypeNumericComparisons)"),
    _c("compare", "self.d == 2", O(d=N), {"d": 2.0}, {"d": 2}, {"d": 2.5}, note="double == int literal"),
    _c("compare", "self.size() > 0 ? self[0] == 'x' : true", L(S), ["x"], ["y"], []),
    _c("compare", "self.flag || self.count > 3", O(flag=B, count=I), {"flag": False, "count": 5}, {"flag": False, "count": 1}, {"flag": True, "count": 0}),
    # -- strings ----------------------------------------------------------------------------
    _c("strings", "self.startsWith('kgen-')", S, "kgen-a", "a-kgen"),
    _c("strings", "self.endsWith('.io')", S, "x.io", "x.com"),
    _c("strings", "self.contains('@')", S, "a@b", "ab"),
    _c("strings", "self.matches('^[a-z][a-z0-9-]*$')", S, "abc-1", "Abc", "1a"),
    _c("strings", "self.matches('^\\\\d{3}$')", S, "123", "12a"),
    _c("strings", "self.size() <= 5", S, "héllo", "héllo!", note="size counts code points"),
    _c("strings", "self.lowerAscii() == self", S, "abc", "aBc", "ÀB"),
    _c("strings", "self.upperAscii() == 'ABC'", S, "abc", "abd"),
    _c("strings", "self.replace('-', '_') == 'a_b_c'", S, "a-b-c", "a-b"),
    _c("strings", "self.replace('-', '_', 1) == 'a_b-c'", S, "a-b-c", "a-b_c"),
    _c("strings", "self.split(',').size() == 3", S, "a,b,c", "a,b", ""),
    _c("strings", "self.split(',', 2)[1] == 'b,c'", S, "a,b,c", "a,b"),
    _c("strings", "self.substring(1, 3) == 'bc'", S, "abcd", "ab", note="out of range is an error"),
    _c("strings", "self.substring(2) == 'cd'", S, "abcd", "a"),
    _c("strings", "self.trim() == self", S, "abc", " abc", "abc\t"),
    _c("strings", "self.join('-') == 'a-b'", L(S), ["a", "b"], ["a"]),
    _c("strings", "self.join() == 'ab'", L(S), ["a", "b"], ["b", "a"]),
    _c("strings", "self.indexOf('b') == 1", S, "abc", "bca", "xyz"),
    _c("strings", "self.indexOf('é', 1) == 2", S, "aéé", "éa"),
    _c("strings", "self.lastIndexOf('a') == 2", S, "aba", "abb"),
    _c("strings", "self.charAt(1) == 'b'", S, "ab", "a", note="charAt(size) is ''; beyond is an error"),
    _c("strings", "strings.quote(self) == '\"a\\\\nb\"'", S, "a\nb", "ab"),
    _c("strings", "'%s-%d'.format([self, 1]) == 'x-1'", S, "x", "y"),
    _c("strings", "self.reverse() == 'cba'", S, "abc", note="ext.Strings v3: not in the apiserver's v2"),
    # -- lists ------------------------------------------------------------------------------
    _c("lists", "self.all(x, x > 0)", L(I), [1, 2], [1, -1], []),
    _c("lists", "self.exists(x, x == 'a')", L(S), ["b", "a"], ["b"]),
    _c("lists", "self.exists_one(x, x > 1)", L(I), [1, 2], [2, 3], [0]),
    _c("lists", "self.map(x, x * 2).filter(x, x > 4).size() == 1", L(I), [1, 3], [3, 4]),
    _c("lists", "self.filter(x, x.startsWith('a')).size() <= 1", L(S), ["ab", "b"], ["ab", "ac"]),
    _c("lists", "'a' in self", L(S), ["a"], ["b"]),
    _c("lists", "self.size() <= 2", L(I), [1, 2], [1, 2, 3]),
    _c("lists", "self.isSorted()", L(I), [1, 2, 2], [2, 1]),
    _c("lists", "self.isSorted()", L(S), ["a", "b"], ["b", "a"]),
    _c("lists", "self.sum() <= 10", L(I), [1, 2, 3], [5, 6], []),
    _c("lists", "self.sum() < 1.0", L(N), [0.25, 0.5], [0.5, 0.75]),
    _c("lists", "self.min() >= 1", L(I), [1, 2], [0, 3], [], note="min of [] is an error"),
    _c("lists", "self.max() <= 5", L(I), [1, 5], [6]),
    _c("lists", "self.indexOf(3) == 1", L(I), [1, 3], [3, 1]),
    _c("lists", "self.lastIndexOf(3) == 2", L(I), [3, 1, 3], [3, 3, 1]),
    _c("lists", "self.all(x, x.name != '')", L(O(name=S)), [{"name": "a"}], [{"name": "a"}, {"name": ""}]),
    _c("lists", "self.map(x, x.name).size() == self.size()", L(O(name=S)), [{"name": "a"}]),
    _c("lists", "sets.contains(self, ['a'])", L(S), ["a", "b"], ["b"]),
    _c("lists", "sets.intersects(self, ['x', 'y'])", L(S), ["y"], ["z"]),
    _c("lists", "self.all(i, v, i < 2 || v == 0)", L(I), [5, 5, 0], [5, 5, 5], note="two-variable comprehension"),
    _c("lists", "self.distinct().size() == self.size()", L(I), [1, 2], [1, 1]),
    _c("lists", "self.sort() == self", L(I), [1, 2], [2, 1]),
    _c("lists", "self.slice(0, 1) == [1]", L(I), [1, 2], [2, 1]),
    _c("lists", "self + [1] == [0, 1]", L(I), [0], [1]),
    _c("lists", "self[1] == 'b'", L(S), ["a", "b"], ["a"], note="index out of range is an error"),
    # -- maps -------------------------------------------------------------------------------
    _c("maps", "'team' in self", M(S), {"team": "a"}, {"x": "b"}),
    _c("maps", "self.all(k, k.startsWith('app.'))", M(S), {"app.a": "1"}, {"app.a": "1", "b": "2"}),
    _c("maps", "self.all(k, self[k] > 0)", M(I), {"a": 1}, {"a": 0}),
    _c("maps", "self.exists(k, self[k] == 'x')", M(S), {"a": "x"}, {"a": "y"}),
    _c("maps", "self.size() <= 2", M(I), {"a": 1}, {"a": 1, "b": 2, "c": 3}),
    _c("maps", "self.all(k, v, v >= 0)", M(I), {"a": 0}, {"a": -1}, note="two-variable comprehension"),
    _c("maps", "self['a'] == 1", M(I), {"a": 1}, {"b": 1}, note="missing key is an error"),
    # -- optional fields --------------------------------------------------------------------
    _c("optional", "has(self.name) || has(self.generateName)", O(name=S, generateName=S), {"name": "a"}, {"generateName": "a"}, {}),
    _c("optional", "!has(self.b) || self.b > self.a", O(a=I, b=I), {"a": 1}, {"a": 1, "b": 2}, {"a": 1, "b": 0}),
    _c("optional", "self.?name.orValue('default') != 'bad'", O(name=S), {}, {"name": "ok"}, {"name": "bad"}),
    _c("optional", "self.?name.hasValue()", O(name=S), {"name": "a"}, {}),
    _c("optional", "self[?'k'].orValue(0) < 3", M(I), {"k": 1}, {}, {"k": 5}),
    _c("optional", "optional.of(self).value() == self", S, "a"),
    _c("optional", "self.name == 'x'", O(name=S), {"name": "x"}, {}, note="an absent field is an error, not false"),
    # -- transition rules (oldSelf) ---------------------------------------------------------
    _c("transition", "self == oldSelf", S, ("a", "a"), ("a", "b"), (None, "b"), transition=True, message="is immutable"),
    _c("transition", "self >= oldSelf", I, (1, 2), (2, 1), transition=True),
    _c("transition", "self.x == oldSelf.x", O(x=S, y=S), ({"x": "a", "y": "1"}, {"x": "a", "y": "2"}), ({"x": "a"}, {"x": "b"}), transition=True),
    _c("transition", "has(self.x) == has(oldSelf.x)", O(x=S), ({"x": "a"}, {}), ({}, {}), transition=True),
    _c("transition", "oldSelf.all(x, x in self)", L(S), (["a"], ["a", "b"]), (["a", "b"], ["b"]), transition=True, note="list may only grow"),
    _c("transition", "!oldSelf.hasValue() || self >= oldSelf.value()", I, (None, 1), (5, 6), (5, 4), transition=True, optional_old_self=True, note="optionalOldSelf: also runs on create (old None)"),
    _c("transition", "oldSelf.orValue(0) <= self", I, (None, 1), (5, 4), transition=True, optional_old_self=True),
    # -- Kubernetes quantity library --------------------------------------------------------
    _c("quantity", "isQuantity(self)", S, "1Gi", "100m", "1.5", "abc", "1GB"),
    _c("quantity", "quantity(self).compareTo(quantity('1Gi')) <= 0", S, "512Mi", "2Gi", "1073741824"),
    _c("quantity", "quantity(self).isLessThan(quantity('2'))", S, "1500m", "2", "3"),
    _c("quantity", "quantity(self).isGreaterThan(quantity('1k'))", S, "1Ki", "1k", "999"),
    _c("quantity", "quantity(self).asInteger() == 1000", S, "1k", "1000", "1.5", note="asInteger of a fraction is an error"),
    _c("quantity", "quantity(self).isInteger()", S, "2", "2.5", "100m"),
    _c("quantity", "quantity(self).add(quantity('500m')).isGreaterThan(quantity('1'))", S, "1", "0.25"),
    _c("quantity", "quantity(self).sub(1).sign() >= 0", S, "1", "0.5", note="sign is declared as a global function, not a member"),
    _c("quantity", "sign(quantity(self).sub(1)) >= 0", S, "1", "0.5"),
    _c("quantity", "quantity(self).asApproximateFloat() < 1.5", S, "1.25", "1.75"),
    _c("quantity", "quantity(self) == quantity('1000m')", S, "1", "1000m", "2", note="Quantity equality is by value"),
    _c("quantity", "quantity(self).compareTo(quantity('1')) == 0", S, "bad", note="quantity('bad') is an error"),
    # -- Kubernetes URL library -------------------------------------------------------------
    _c("url", "isURL(self)", S, "https://example.com/a", "/relative/path", "example.com", "http://[::1", "mailto:a@b"),
    _c("url", "url(self).getScheme() == 'https'", S, "https://a.io", "http://a.io"),
    _c("url", "url(self).getHost() == 'a.io:8080'", S, "https://a.io:8080/x", "https://a.io/x"),
    _c("url", "url(self).getHostname() == '::1'", S, "https://[::1]:80/", "https://a.io/"),
    _c("url", "url(self).getPort() == ''", S, "https://a.io/", "https://a.io:443/"),
    _c("url", "url(self).getEscapedPath() == '/a%20b'", S, "https://a.io/a%20b", "https://a.io/a b", "https://a.io/ab"),
    _c("url", "url(self).getQuery()['k'] == ['1', '2']", S, "https://a.io/?k=1&k=2", "https://a.io/?k=1"),
    # -- Kubernetes IP and CIDR libraries ---------------------------------------------------
    _c("ip", "isIP(self)", S, "10.0.0.1", "::1", "10.0.0.256", "fe80::1%eth0", "010.0.0.1", "::ffff:10.0.0.1"),
    _c("ip", "ip(self).family() == 6", S, "::1", "10.0.0.1"),
    _c("ip", "ip(self).isLoopback()", S, "127.0.0.2", "::1", "10.0.0.1"),
    _c("ip", "ip(self).isGlobalUnicast()", S, "8.8.8.8", "10.0.0.1", "255.255.255.255", "169.254.0.1"),
    _c("ip", "ip(self).isLinkLocalUnicast()", S, "169.254.0.1", "fe80::1", "10.0.0.1"),
    _c("ip", "ip(self).isUnspecified()", S, "0.0.0.0", "::", "1.1.1.1"),
    _c("ip", "ip.isCanonical(self)", S, "2001:db8::1", "2001:DB8::1", "2001:db8:0:0:0:0:0:1", "10.0.0.1"),
    _c("ip", "isCIDR(self)", S, "10.0.0.0/8", "10.0.0.1/8", "10.0.0.0/33", "::/0", "10.0.0.0"),
    _c("ip", "cidr(self).containsIP(ip('10.1.2.3'))", S, "10.0.0.0/8", "192.168.0.0/16"),
    _c("ip", "cidr(self).containsIP('10.1.2.3')", S, "10.0.0.0/8", "11.0.0.0/8"),
    _c("ip", "cidr(self).containsCIDR('10.1.0.0/16')", S, "10.0.0.0/8", "10.1.2.0/24"),
    _c("ip", "cidr(self).prefixLength() <= 24", S, "10.0.0.0/16", "10.0.0.0/28"),
    _c("ip", "cidr(self).ip() == ip('10.0.0.0')", S, "10.0.0.0/8", "10.1.0.0/16"),
    _c("ip", "cidr(self).masked() == cidr(self)", S, "10.0.0.0/8", "10.1.0.0/8"),
    # -- Kubernetes format library ----------------------------------------------------------
    _c("format", "!format.dns1123Label().validate(self).hasValue()", S, "my-name", "My_Name", "-a", "a" * 63, "a" * 64, extra_schema={"maxLength": 70}),
    _c("format", "!format.dns1123Subdomain().validate(self).hasValue()", S, "a.b-c.io", "a..b", "A.io"),
    _c("format", "!format.dns1035Label().validate(self).hasValue()", S, "abc", "1abc"),
    _c("format", "!format.qualifiedName().validate(self).hasValue()", S, "example.com/Name_1", "a/b/c", "-x"),
    _c("format", "!format.labelValue().validate(self).hasValue()", S, "", "v1.0_A", "-bad"),
    _c("format", "!format.uuid().validate(self).hasValue()", S, "123e4567-e89b-12d3-a456-426614174000", "123e4567"),
    _c("format", "format.named('dns1123Label').hasValue()", S, "x"),
    _c("format", "format.dns1123Label().validate(self).value()[0].startsWith('a lowercase RFC 1123 label')", S, "Bad"),
    # -- Kubernetes semver library ----------------------------------------------------------
    _c("semver", "isSemver(self)", S, "1.2.3", "v1.2.3", "1.2", "1.2.3-rc.1"),
    _c("semver", "semver(self).major() >= 1 && semver(self).minor() < 5", S, "1.4.0", "0.4.0", "1.5.0"),
    _c("semver", "semver(self).isLessThan(semver('2.0.0'))", S, "1.9.9", "2.0.0"),
    _c("semver", "semver(self).compareTo(semver('1.0.0-alpha')) > 0", S, "1.0.0", "1.0.0-alpha"),
    # -- int/uint/double arithmetic ---------------------------------------------------------
    _c("arith", "self * 2 > 0", I, 5, 4611686018427387904, note="int64 overflow is an error"),
    _c("arith", "self + 1 > self", I, 1, INT64_MAX),
    _c("arith", "-self < 1", I, 1, INT64_MIN),
    _c("arith", "self / 2 == 2", I, 5, 4, 6, note="int division truncates"),
    _c("arith", "10 / self > 1", I, 2, 0, note="division by zero is an error"),
    _c("arith", "self % 3 == 1", I, 4, -2, 5),
    _c("arith", "uint(self) > 1u", I, 2, -1, note="uint of a negative is an error"),
    _c("arith", "uint(self) - 1u >= 0u", I, 1, 0, note="uint underflow is an error"),
    _c("arith", "self * 1.5 < 10.0", N, 6.0, 7.0),
    _c("arith", "int(self) == 2", N, 2.9, 3.1, 1e19, note="int(double) truncates; out of range is an error"),
    _c("arith", "double(self) / 3.0 > 0.3", I, 1, 0),
    _c("arith", "self / 0.0 > 0.0", N, 1.0, note="double division by zero is +Inf, no error"),
    _c("arith", "self == 0.1 + 0.2", N, 0.30000000000000004, 0.3),
    _c("arith", "math.greatest(self, 1) == self", I, 2, 0, note="ext.Math: not in the apiserver's environment"),
    # -- duration and timestamp -------------------------------------------------------------
    _c("time", "duration(self) <= duration('1h')", S, "30m", "2h", "1h0m1s", "bad", note="a bad duration is an error"),
    _c("time", "duration(self).getSeconds() == 90", S, "1m30s", "90s", "1m"),
    _c("time", "timestamp(self) > timestamp('2020-01-01T00:00:00Z')", S, "2021-06-01T00:00:00Z", "2019-01-01T00:00:00Z", "2021-06-01"),
    _c("time", "timestamp(self).getFullYear() == 2021", S, "2021-06-01T12:00:00+02:00", "2020-12-31T23:30:00-01:00"),
    _c("time", "timestamp(self) + duration('24h') > timestamp('2021-01-02T00:00:00Z')", S, "2021-01-01T00:00:01Z", "2021-01-01T00:00:00Z"),
    _c("time", "self > timestamp('2020-01-01T00:00:00Z')", {"type": "string", "format": "date-time"}, "2021-01-01T00:00:00Z", "2019-01-01T00:00:00Z", note="format date-time fields are CEL timestamps"),
    _c("time", "self < duration('1h')", {"type": "string", "format": "duration", "maxLength": 32}, "30m", "2h", note="format duration fields are CEL durations"),
    # -- string escapes and property-name escaping ------------------------------------------
    _c("escapes", "self == 'a\\nb'", S, "a\nb", "a\\nb"),
    _c("escapes", "self == \"it's\"", S, "it's", "its"),
    _c("escapes", "self == r'\\d'", S, "\\d", "d"),
    _c("escapes", "self == '\\u00e9'", S, "é", "e"),
    _c("escapes", "self == '''x\"y'''", S, 'x"y', "xy"),
    _c("escapes", "b'abc'.size() == self.size()", S, "xyz", "xy"),
    _c("escapes", "self.my__dash__field == 'x'", O(**{"my-field": S}), {"my-field": "x"}, {"my-field": "y"}, note="property my-field is my__dash__field"),
    _c("escapes", "self.__namespace__ == 'x'", O(namespace=S), {"namespace": "x"}, {"namespace": "y"}, note="reserved word property namespace is __namespace__"),
    _c("escapes", "self.a__dot__b == 'x'", O(**{"a.b": S}), {"a.b": "x"}, {"a.b": "y"}),
    # -- type checking at CRD creation ------------------------------------------------------
    _c("typecheck", "self == 1", S, "1", note="string == int does not compile"),
    _c("typecheck", "self.nope == 'x'", O(name=S), {"name": "x"}, note="undefined field does not compile"),
    _c("typecheck", "self.name", O(name=S), {"name": "x"}, note="a rule must be bool"),
    _c("typecheck", "self.matches('[')", S, "x", note="a bad regex literal does not compile"),
    _c("typecheck", "duration('1x') > duration('1h')", S, "x", note="a bad duration literal does not compile"),
    # -- messages, messageExpression, reason, fieldPath --------------------------------------
    _c("message", "self < 10", I, 5, 20, message="must be below 10"),
    _c("message", "self < 10", I, 20, message_expression="'got ' + string(self) + ', want below 10'"),
    _c("message", "self < 10", I, 20, 200, message_expression="self > 100 ? 'way too big' : 'too big'"),
    _c("message", "self.size() < 3", L(S), ["a", "b", "c"], message_expression="'too many: ' + self.join(',')"),
    _c("message", "self < 10", I, 20, message="static", message_expression="''", note="empty messageExpression falls back to message"),
    _c("message", "self < 10", I, 20, message_expression="string(1 / (self - 20))", note="a failing messageExpression"),
    _c("message", "self.a == self.b", O(a=S, b=S), {"a": "x", "b": "y"}, field_path=".b", reason="FieldValueForbidden"),
    _c("message", "self.a != ''", O(a=S), {"a": ""}, reason="FieldValueRequired", message="a is required"),
    _c("message", "self.a != 'x'", O(a=S), {"a": "x"}, reason="FieldValueDuplicate"),
    # -- where a rule sits: field paths -----------------------------------------------------
    _c("paths", "self.startsWith('a')", L(S), ["ab", "b", "c"], at="items", note="rule on list items"),
    _c("paths", "self > 0", M(I), {"x": 1, "y": 0, "z.w": -1}, at="values", note="rule on map values"),
    _c("paths", "self.name != ''", L(O(name=S)), [{"name": "a"}, {"name": ""}], at="items"),
    # -- cost --------------------------------------------------------------------------------
    _c("cost", "self.all(x, x.matches('^[a-z]+$'))", {"type": "array", "items": {"type": "string"}}, ["abc"], note="unbounded list and strings: estimated cost too high"),
    _c("cost", "self.all(x, self.all(y, x != y || true))", L(I, max_items=2000), list(range(1, 1500)), note="estimated 2x over the per-rule limit"),
    _c("cost", "self.all(x, self.all(y, x + y >= 0))", L(L(I, max_items=100), max_items=60), [list(range(100))] * 60, [list(range(100))] * 5, at="items", alone=True, note="each item within the per-call limit, but 60 items of it push the schema over the per-CRD estimated total"),
]
