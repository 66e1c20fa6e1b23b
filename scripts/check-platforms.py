#!/usr/bin/env python3
"""Checks, without building for an Apple platform, that Rill deploys where Combine does.

No machine of this project builds for Apple platforms, and the Linux toolchain ignores `@available` for them, so
nothing else would notice a library source that uses an API newer than Combine's minimums. This script checks:

1. Package.swift declares at most Combine's minimums (macOS 10.15, iOS 13, tvOS 13, watchOS 6, visionOS 1, Mac
   Catalyst 13), and declares the first four, so that SwiftPM's older defaults never apply.
2. No library target (a `.target` under Sources/) imports `Synchronization` (its `Mutex` and `Atomic` need the
   2024 systems).
3. No library source uses a known newer-than-minimum API outside a declaration that carries an `@available` at
   least as new (on the declaration, an enclosing type or extension, or an `if #available` block). The list is in
   RULES below, each entry with the versions it needs; it covers the standard library (Synchronization, clocks and
   `Duration`, discarding task groups, Observation, `Regex` and string processing, typed throws in function types,
   typed `AsyncSequence` failures, `Int128`, `RangeSet`, `InlineArray`, parameter packs in generic types, constrained
   existentials, noncopyable generics, task executors) and Foundation (`formatted`, `Date.now`, `URL(filePath:)`,
   the new `Locale` types, `URL.Template`, async `URLSession`). Types that Rill itself declares with an
   `@available` are added to the list, so that their uses must be gated too, and the Combine API that Combine added
   after its first release (REQUIRED_GATES) must keep its gate.
4. Code under `#if os(Linux)`, `#if canImport(Glibc)` and the like, which Apple platforms never compile, is skipped.

It reads sources as text: comments and string literals are blanked, braces delimit scopes, and an `@available`
applies to the declaration that follows it. It is a heuristic, not a compiler: it knows the APIs in RULES and
nothing else, and it cannot resolve overloads (an API that shares its name with an older one, such as `contains`,
is matched by shape only, or not at all). Some APIs newer than macOS 10.15 need no gate, because Swift back-deploys
them: Swift concurrency itself, `AsyncStream.makeStream` (back-deployed to macOS 10.15), `#isolation`,
`Task(name:)`, and a typed `throws(E)` on a function declaration (only function *types* with a typed throw need the
macOS 15 runtime).

Usage:
  scripts/check-platforms.py              check the repository (exit status 1 on any finding)
  scripts/check-platforms.py --self-test  check the checker against the fixtures in SELF_TEST
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PLATFORMS = ("macOS", "iOS", "tvOS", "watchOS", "visionOS")
COMBINE_MINIMUMS = {
    "macOS": (10, 15),
    "iOS": (13, 0),
    "tvOS": (13, 0),
    "watchOS": (6, 0),
    "visionOS": (1, 0),
    "macCatalyst": (13, 0),
}
REQUIRED_PLATFORMS = ("macOS", "iOS", "tvOS", "watchOS")


def v(text: str) -> tuple[int, ...]:
    parts = tuple(int(p) for p in text.split("."))
    return parts + (0,) * (2 - len(parts)) if len(parts) < 2 else parts


# Versions an API needs: (macOS, iOS, tvOS, watchOS, visionOS); visionOS 1 means "any visionOS".
V11 = {"macOS": (11, 0), "iOS": (14, 0), "tvOS": (14, 0), "watchOS": (7, 0)}
V12 = {"macOS": (12, 0), "iOS": (15, 0), "tvOS": (15, 0), "watchOS": (8, 0)}
V12_3 = {"macOS": (12, 3), "iOS": (15, 4), "tvOS": (15, 4), "watchOS": (8, 5)}
V13 = {"macOS": (13, 0), "iOS": (16, 0), "tvOS": (16, 0), "watchOS": (9, 0)}
V13_3 = {"macOS": (13, 3), "iOS": (16, 4), "tvOS": (16, 4), "watchOS": (9, 4)}
V14 = {"macOS": (14, 0), "iOS": (17, 0), "tvOS": (17, 0), "watchOS": (10, 0)}
V15 = {"macOS": (15, 0), "iOS": (18, 0), "tvOS": (18, 0), "watchOS": (11, 0), "visionOS": (2, 0)}
V26 = {"macOS": (26, 0), "iOS": (26, 0), "tvOS": (26, 0), "watchOS": (26, 0), "visionOS": (26, 0)}


@dataclass
class Rule:
    pattern: str
    needs: dict
    reason: str
    # A type name that a file may declare for itself (a generic parameter called `Clock`, say): skipped there.
    shadowable: str | None = None
    # Only in files that do not import Foundation (where the older overload of the same name would be chosen).
    without_foundation: bool = False
    regex: re.Pattern = field(init=False)

    def __post_init__(self) -> None:
        self.regex = re.compile(self.pattern, re.MULTILINE)


SYNC = "Synchronization (macOS 15)"
CLOCK = "the clock and Duration API (Swift 5.7 runtime)"
RULES = [
    # Synchronization.
    Rule(r"\bMutex\b", V15, f"Mutex: {SYNC}", shadowable="Mutex"),
    Rule(r"\bAtomic\s*[<(]", V15, f"Atomic: {SYNC}"),
    Rule(r"\bAtomicLazyReference\b|\bWordPair\b", V15, SYNC),
    # Clocks, Duration and the sleeps that take them.
    Rule(r"\bDuration\b", V13, f"Duration: {CLOCK}", shadowable="Duration"),
    Rule(r"\b(?:ContinuousClock|SuspendingClock|InstantProtocol|DurationProtocol)\b", V13, CLOCK),
    Rule(r"\bClock\b", V13, f"Clock: {CLOCK}", shadowable="Clock"),
    Rule(r"\bTask\s*\.\s*sleep\s*\(\s*(?:for|until)\s*:", V13, f"Task.sleep(for:)/(until:): {CLOCK}"),
    # Concurrency after Swift 5.5.
    Rule(r"\b(?:with)?(?:Throwing)?DiscardingTaskGroup\b", V14, "discarding task groups (Swift 5.9 runtime)"),
    Rule(r"\b(?:TaskExecutor|withTaskExecutorPreference|globalConcurrentExecutor)\b", V15, "task executors"),
    Rule(r"\bisolated\s+deinit\b", V15, "isolated deinit (Swift 6.1 runtime)"),
    Rule(r"\bTask\s*\.\s*(?:immediate|startSynchronously)\b", V26, "Task.immediate (Swift 6.2 runtime)"),
    Rule(r"\bwithTaskPriorityEscalationHandler\b|\.escalatePriority\s*\(", V26, "priority escalation API"),
    Rule(r"\bnext\s*\(\s*isolation\s*:", V15, "AsyncIteratorProtocol.next(isolation:) (Swift 6.0 runtime)"),
    Rule(
        r"\bAsync(?:Sequence|IteratorProtocol)\s*<[^<>]*,",
        V15,
        "an AsyncSequence's typed Failure (Swift 6.0 runtime)",
    ),
    # Observation.
    # Importing the module is fine (it is weak-linked); using it is not.
    Rule(r"\bObservable\b|\bwithObservationTracking\b|\bObservation(?:Registrar|Ignored|Tracked)\b",
         V14, "Observation (macOS 14)"),
    Rule(r"\bObservations\b", V26, "Observations (Swift 6.2)"),
    # Language features that need run-time support.
    Rule(r"\bany\s+[A-Z]\w*(?:\.\w+)*\s*<", V13, "a constrained existential (`any P<T>`) needs the Swift 5.7 runtime"),
    Rule(r"~\s*(?:Copyable|Escapable)\b", V15, "noncopyable/nonescapable generics need the Swift 6.0 runtime"),
    Rule(r"\b(?:struct|class|enum|actor)\s+\w+\s*<[^>{]*\beach\s+\w", V14,
         "parameter packs in a generic type need the Swift 5.9 runtime"),
    # The standard library's later types and methods.
    Rule(r"\bU?Int128\b", V15, "Int128/UInt128 (Swift 6.0)"),
    Rule(r"\bRangeSet\b|\.(?:removeSubranges|moveSubranges)\s*\(|\.indices\s*\(\s*(?:where|of)\s*:", V15,
         "RangeSet (Swift 6.0)"),
    Rule(r"\bInlineArray\b|\bUTF8Span\b|\bMutableSpan\b|\bRawSpan\b|\.span\b(?!\s*\()", V26, "Span/InlineArray (Swift 6.2)"),
    Rule(r"\bFloat16\b", V11, "Float16 (macOS 11; not on Intel Macs)"),
    Rule(r"\bString\s*\(\s*unsafeUninitializedCapacity\s*:", V11, "String(unsafeUninitializedCapacity:) (macOS 11)"),
    Rule(r"\bCodingKeyRepresentable\b", V12_3, "CodingKeyRepresentable (macOS 12.3)"),
    Rule(r"\bStaticBigInt\b", V13_3, "StaticBigInt (macOS 13.3)"),
    # String processing (Swift 5.7): Regex and the collection algorithms that came with it.
    Rule(r"\bRegex\b", V13, "Regex (Swift 5.7 runtime)", shadowable="Regex"),
    Rule(r"\bRegexComponent\b|\bimport\s+RegexBuilder\b", V13, "Regex (Swift 5.7 runtime)"),
    Rule(r"\.(?:firstMatch|wholeMatch|prefixMatch|matches|ranges|firstRange)\s*\(\s*of\s*:", V13,
         "string processing algorithms (Swift 5.7 runtime)"),
    Rule(r"\.(?:trimmingPrefix|trimPrefix|replacing)\s*\(", V13, "string processing algorithms (Swift 5.7 runtime)"),
    # Foundation.
    Rule(r"\.formatted\s*\(", V12, "Foundation's formatted() (macOS 12)"),
    Rule(r"\bDate\s*\.\s*now\b", V12, "Date.now (macOS 12)"),
    Rule(r"\bAttributedString\b|\bString\s*\(\s*localized\s*:|\bFormatStyle\b", V12, "Foundation (macOS 12)"),
    Rule(r"\bLocalizedStringResource\b", V13, "LocalizedStringResource (macOS 13)"),
    Rule(r"\bawait\b[^\n;]*\.(?:data|bytes|upload|download)\s*\(\s*(?:for|from)\s*:", V12,
         "URLSession's async methods (macOS 12)"),
    Rule(r"\bURL\s*\(\s*filePath\s*:|\.appending\s*\(\s*(?:path|component|components)\s*:|"
         r"\bURL\s*\.\s*(?:homeDirectory|temporaryDirectory|documentsDirectory|cachesDirectory|"
         r"applicationSupportDirectory|currentDirectory)\b|\.path\s*\(\s*percentEncoded\s*:",
         V13, "URL's file-path API (macOS 13)"),
    Rule(r"\bLocale\s*\.\s*(?:Language|Region|Script|Components|LanguageCode|Currency|NumberingSystem|"
         r"MeasurementSystem|Collation|HourCycle|Subdivision|Variant)\b", V13, "the new Locale types (macOS 13)"),
    Rule(r"\bURL\s*\.\s*Template\b", V26, "URL.Template (macOS 26)"),
    Rule(r"\bCalendar\s*\.\s*RecurrenceRule\b", V15, "Calendar.RecurrenceRule (macOS 15)"),
    Rule(r"\bDispatchSerialQueue\b", V14, "DispatchSerialQueue (macOS 14)"),
    # Combine's own later additions, used inside Rill.
    Rule(r"\.assign\s*\(\s*to\s*:\s*&", V11, "assign(to:) on a Published publisher (Combine: macOS 11)"),
]

# Special shapes that a single regular expression over one line cannot judge; see the functions below.
TYPED_THROWS = re.compile(r"\bthrows\s*\(\s*(?!any\s+Error\s*\))[^)]*\)")
SPLIT_STRING = re.compile(r"\.split\s*\(\s*separator\s*:\s*\"((?:[^\"\\]|\\.)*)\"")
CONTAINS_STRING = re.compile(r"\.contains\s*\(\s*\"((?:[^\"\\]|\\.)*)\"")
GENERIC_PARAMETERS = re.compile(r"(?:\b(?:func|struct|class|enum|actor|typealias)\s+\w+|\binit|\bsubscript)\s*"
                                r"<((?:[^<>]|<[^<>]*>)*)>")
ASYNC_SEQUENCE_PARAM = re.compile(r"[<,]\s*(\w+)\s*:\s*(?:any\s+)?Async(?:Sequence|IteratorProtocol)\b|"
                                  r"\bwhere\s+(\w+)\s*:\s*Async(?:Sequence|IteratorProtocol)\b")

# Declarations of Combine API that Combine added after macOS 10.15: Rill declares them with Combine's gate.
# (path, regex matched on the declaration's line, versions, what). Each must match at least once.
REQUIRED_GATES = [
    ("Sources/RillCore/Published/Published.swift", r"\bfunc assign\(to published: inout", V11,
     "Publisher.assign(to:)"),
    ("Sources/RillCore/Publishers/Optional.Publisher.swift", r"\bpublic var publisher: Publisher\b", V11,
     "Optional.publisher"),
    ("Sources/RillCore/Publishers/SwitchToLatest/Publishers.SwitchToLatest.swift",
     r"^extension Publisher where Output: Publisher, (?:Failure == Never|Output\.Failure == Never)", V11,
     "the switchToLatest() overloads for Never failures"),
    ("Sources/RillCore/Publishers/Merging/Publishers.FlatMap.swift", r"\bfunc flatMap<P: Publisher>\(", V11,
     "the flatMap(maxPublishers:_:) overloads for Never failures"),
    ("Sources/RillCore/Core/Introspection.swift", r"^public protocol _Introspection\b", V11, "_Introspection"),
    ("Sources/RillCore/Core/Introspection.swift", r"^extension _Introspection\b", V11,
     "_Introspection's enable(), disable() and isEnabled"),
    ("Sources/RillCore/Concurrency/Publisher+Values.swift", r"\bpublic var values\b", V12, "Publisher.values"),
    ("Sources/RillCore/Concurrency/Future+Async.swift", r"\bpublic var value: Output\b", V12, "Future.value"),
]

# Conditions under which Apple platforms never compile a `#if` branch.
NON_APPLE = re.compile(
    r"^\s*(?:os\((?:Linux|Windows|Android|WASI|OpenBSD|FreeBSD|Cygwin|PS4|Haiku)\)|"
    r"canImport\((?:Glibc|Musl|Android|WinSDK|Bionic|WASILibc|FoundationNetworking)\)|"
    r"!\s*canImport\((?:Darwin|Combine|ObjectiveC)\)|!\s*_runtime\(_ObjC\))\s*$"
)
APPLE_ONLY = re.compile(r"^\s*(?:canImport\((?:Darwin|Combine|ObjectiveC)\)|_runtime\(_ObjC\))\s*$")


@dataclass
class Finding:
    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def blank(text: str) -> str:
    """Replaces comments and the contents of string literals with spaces, keeping every offset and newline."""
    out = list(text)
    i, n = 0, len(text)

    def wipe(a: int, b: int) -> None:
        for k in range(a, min(b, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            wipe(i, j)
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            wipe(i, j)
            i = j
        elif c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
            hashes = len(re.match(r"#*", text[i:]).group(0))
            start = i + hashes
            multi = text.startswith('"""', start)
            quote = '"""' if multi else '"'
            close = quote + "#" * hashes
            j = start + len(quote)
            while j < n:
                if text[j] == "\\" and hashes == 0:
                    j += 2
                    continue
                if text.startswith(close, j):
                    break
                if not multi and text[j] == "\n":
                    break
                j += 1
            wipe(start + len(quote), j)
            i = j + len(close)
        else:
            i += 1
    return "".join(out)


AVAILABLE = re.compile(r"@available\s*\(")
POUND_AVAILABLE = re.compile(r"#available\s*\(")
PLATFORM_VERSION = re.compile(r"\b(macOS|OSX|iOS|tvOS|watchOS|visionOS|macCatalyst)\s+(\d+(?:\.\d+)*)")
PLATFORM_UNAVAILABLE = re.compile(r"^\s*(macOS|OSX|iOS|tvOS|watchOS|visionOS|\*)\s*,\s*unavailable\b")
DECL = re.compile(
    r"(?:(?:public|private|fileprivate|internal|package|open|static|class|final|override|mutating|nonmutating|"
    r"nonisolated|convenience|required|lazy|weak|unowned|indirect|dynamic|prefix|postfix|infix|consuming|"
    r"borrowing|distributed)(?:\([^)]*\))?\s+)*"
    r"(func|var|let|init|deinit|subscript|struct|class|enum|protocol|extension|typealias|associatedtype|case|"
    r"actor|macro|import|operator|precedencegroup)\b"
)
HEADER_KEYWORDS = {"func", "init", "deinit", "subscript", "struct", "class", "enum", "protocol", "extension", "actor"}
CONTINUATION = re.compile(r"(?:->|where\b|throws\b|rethrows\b|async\b|[)\]>.,:&|?=+*/-])")


def parse_availability(args: str) -> dict:
    """The platforms an `@available(...)` or `#available(...)` argument list restricts, with their versions."""
    gate: dict = {}
    unavailable = PLATFORM_UNAVAILABLE.match(args)
    if unavailable:
        name = unavailable.group(1)
        names = PLATFORMS if name == "*" else ("macOS" if name == "OSX" else name,)
        return {p: (999, 0) for p in names}
    for name, version in PLATFORM_VERSION.findall(args):
        name = "macOS" if name == "OSX" else name
        if name in PLATFORMS:
            gate[name] = v(version)
    return gate


def balanced(text: str, open_index: int) -> int:
    """The index just past the parenthesis that closes the one at `open_index`."""
    depth = 0
    for k in range(open_index, len(text)):
        if text[k] == "(":
            depth += 1
        elif text[k] == ")":
            depth -= 1
            if depth == 0:
                return k + 1
    return len(text)


def covers(gates: list, needs: dict) -> bool:
    merged: dict = {}
    for gate in gates:
        for platform, version in gate.items():
            merged[platform] = max(merged.get(platform, (0, 0)), version)
    for platform, version in needs.items():
        if platform == "visionOS" and version <= (1, 0):
            continue
        if merged.get(platform, COMBINE_MINIMUMS[platform]) < version:
            return False
    return True


def describe(needs: dict) -> str:
    parts = [f"{p} {'.'.join(str(x) for x in needs[p])}" for p in PLATFORMS if p in needs]
    return ", ".join(parts)


def is_function_declaration_signature(code: str, throws_index: int) -> bool:
    """Whether the `throws(` at `throws_index` ends the parameter list of a func/init/subscript declaration."""
    k = throws_index - 1
    while k >= 0 and code[k] in " \t\n":
        k -= 1
    for word in ("async", "reasync"):
        if code[max(0, k - len(word) + 1):k + 1] == word:
            k -= len(word)
            while k >= 0 and code[k] in " \t\n":
                k -= 1
    if k < 0 or code[k] != ")":
        return False
    depth = 0
    while k >= 0:
        if code[k] == ")":
            depth += 1
        elif code[k] == "(":
            depth -= 1
            if depth == 0:
                break
        k -= 1
    before = code[max(0, k - 300):k]
    return re.search(r"(?:\bfunc\s+[^\s(<]+|\binit[?!]?|\bsubscript)\s*(?:<[^(){}]*>)?\s*$", before) is not None


def decoded_length(literal: str) -> int:
    return len(re.sub(r"\\(?:u\{[0-9a-fA-F]+\}|.)", "x", literal))


def scan(path: str, text: str, extra_rules: list, declared_elsewhere: frozenset = frozenset()) -> list:
    """The findings of one library source; `declared_elsewhere`: type names the library targets declare (a nested
    `Timeline.Clock`, say), which shadow a standard library type of the same name."""
    code = blank(text)
    lines_at = [0]
    for k, ch in enumerate(text):
        if ch == "\n":
            lines_at.append(k + 1)

    def line_of(index: int) -> int:
        lo, hi = 0, len(lines_at) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if lines_at[mid] <= index:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    imports_foundation = re.search(r"^\s*(?:@\w+\s+)*(?:\w+\s+)?import\s+Foundation\b", code, re.MULTILINE)
    declared = set(re.findall(r"\b(?:struct|class|enum|protocol|actor|typealias|associatedtype)\s+(\w+)", code))
    declared |= declared_elsewhere
    for generics in GENERIC_PARAMETERS.findall(code):
        for parameter in generics.split(","):
            name = re.match(r"\s*(?:each\s+)?(\w+)", parameter)
            if name:
                declared.add(name.group(1))
    async_params = {a or b for a, b in ASYNC_SEQUENCE_PARAM.findall(code)}

    candidates: dict = {}  # offset -> list of (needs, message)

    def add(offset: int, needs: dict, message: str) -> None:
        candidates.setdefault(offset, []).append((needs, message))

    for rule in RULES + extra_rules:
        if rule.shadowable and rule.shadowable in declared:
            continue
        if rule.without_foundation and imports_foundation:
            continue
        for match in rule.regex.finditer(code):
            add(match.start(), rule.needs, rule.reason)
    for match in TYPED_THROWS.finditer(code):
        if not is_function_declaration_signature(code, match.start()):
            add(match.start(), V15, "a function type with a typed throw needs the Swift 6.0 runtime")
    for match in SPLIT_STRING.finditer(text):
        if code[match.start()] == "." and decoded_length(match.group(1)) > 1:
            add(match.start(), V13, "split(separator:) with a String separator (Swift 5.7 runtime)")
    if not imports_foundation:
        for match in CONTAINS_STRING.finditer(text):
            if code[match.start()] == "." and decoded_length(match.group(1)) > 1:
                add(match.start(), V13, "contains(_:) with a String argument needs Foundation or the Swift 5.7 "
                    "runtime")
    for name in async_params:
        for match in re.finditer(rf"\b{re.escape(name)}\s*\.\s*Failure\b", code):
            add(match.start(), V15, "an AsyncSequence's typed Failure (Swift 6.0 runtime)")

    findings = []
    scopes: list = []  # per open brace: the availability gates it adds (possibly empty)
    pending: list = []  # gates of the declaration being read (from its attributes or an `#available`)
    bound = False  # whether the declaration those gates belong to has started
    header = False  # whether that declaration is a type or function, whose header runs to its `{`
    guard_gates: list = []  # (brace depth, gate) of `guard #available` whose else-block is open
    conditions: list = []  # per `#if`: [apple_excluded, an earlier branch covered every Apple platform]
    paren = 0
    i, n = 0, len(code)
    at_line_start = True
    while i < n:
        ch = code[i]
        if at_line_start:
            stripped_at = i
            while stripped_at < n and code[stripped_at] in " \t":
                stripped_at += 1
            rest = code[stripped_at:code.find("\n", stripped_at) if "\n" in code[stripped_at:] else n]
            if rest.startswith("#if") or rest.startswith("#elseif") or rest.startswith("#else") or \
                    rest.startswith("#endif"):
                directive = rest.split(None, 1)
                keyword, condition = directive[0], directive[1] if len(directive) > 1 else ""
                if keyword == "#if":
                    conditions.append([bool(NON_APPLE.match(condition)), bool(APPLE_ONLY.match(condition))])
                elif keyword == "#elseif" and conditions:
                    covered = conditions[-1][1]
                    conditions[-1] = [covered or bool(NON_APPLE.match(condition)),
                                      covered or bool(APPLE_ONLY.match(condition))]
                elif keyword == "#else" and conditions:
                    conditions[-1] = [conditions[-1][1], True]
                elif keyword == "#endif" and conditions:
                    conditions.pop()
                j = code.find("\n", i)
                i = n if j < 0 else j + 1
                continue
            if paren == 0 and rest:
                if rest.startswith("@"):
                    if bound:
                        pending, bound = [], False
                elif DECL.match(rest):
                    if bound:
                        pending = []
                    bound = True
                    # A type's or a function's header runs to its `{`; a property's or a case's ends with its line.
                    header = DECL.match(rest).group(1) in HEADER_KEYWORDS
                elif bound and not header and not CONTINUATION.match(rest) and not rest.startswith("{"):
                    pending, bound = [], False
            at_line_start = False
        excluded = any(c[0] for c in conditions)
        if i in candidates and not excluded:
            gates = [g for s in scopes for g in s] + pending
            for needs, message in candidates[i]:
                if not covers(gates, needs):
                    findings.append(Finding(path, line_of(i), f"{message}; needs {describe(needs)}: mark the "
                                            f"enclosing declaration @available({describe(needs)}, *)"))
        if ch == "\n":
            at_line_start = True
            i += 1
            continue
        match = AVAILABLE.match(code, i)
        if match:
            end = balanced(code, match.end() - 1)
            gate = parse_availability(code[match.end():end - 1])
            if gate:
                pending.append(gate)
            i = end
            continue
        match = POUND_AVAILABLE.match(code, i)
        if match:
            end = balanced(code, match.end() - 1)
            gate = parse_availability(code[match.end():end - 1])
            line_start = code.rfind("\n", 0, i) + 1
            if re.match(r"\s*guard\b", code[line_start:i]):
                guard_gates.append((len(scopes), gate))
            else:
                pending.append(gate)
            i = end
            continue
        if ch in "([":
            paren += 1
        elif ch in ")]":
            paren = max(0, paren - 1)
        elif ch == "{":
            scopes.append(pending)
            pending, bound = [], False
        elif ch == "}":
            if scopes:
                scopes.pop()
            pending, bound = [], False
            # The else-block of a `guard #available` has closed: the rest of the enclosing scope is gated.
            while guard_gates and guard_gates[-1][0] == len(scopes) and scopes:
                _, gate = guard_gates.pop()
                scopes[-1] = scopes[-1] + [gate]
        i += 1
    return findings


def read(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def platforms_block(manifest: str) -> str | None:
    code = blank(manifest)
    match = re.search(r"\bplatforms\s*:\s*\[", code)
    if not match:
        return None
    depth, k = 0, match.end() - 1
    while k < len(code):
        if code[k] == "[":
            depth += 1
        elif code[k] == "]":
            depth -= 1
            if depth == 0:
                return manifest[match.end():k]
        k += 1
    return None


def check_manifest(path: str, manifest: str) -> list:
    findings = []
    block = platforms_block(manifest)
    line = manifest[:manifest.find("platforms")].count("\n") + 1 if block is not None else 1
    if block is None:
        return [Finding(path, 1, "no `platforms:`: declare Combine's minimums, or SwiftPM's defaults apply")]
    declared = {}
    for name, args in re.findall(r"\.(macOS|iOS|tvOS|watchOS|visionOS|macCatalyst|driverKit)\s*\(([^)]*)\)", block):
        enum = re.match(r"\s*\.v(\d+(?:_\d+)*)\s*$", args)
        string = re.match(r'\s*"(\d+(?:\.\d+)*)"\s*$', args)
        if enum:
            declared[name] = v(enum.group(1).replace("_", "."))
        elif string:
            declared[name] = v(string.group(1))
        else:
            findings.append(Finding(path, line, f"cannot read the {name} minimum `{args.strip()}`"))
    for name, version in declared.items():
        minimum = COMBINE_MINIMUMS.get(name)
        if minimum is not None and version > minimum:
            findings.append(Finding(path, line, f"{name} {'.'.join(map(str, version))} is above Combine's minimum "
                                    f"{'.'.join(map(str, minimum))}: a client that supports Combine's platforms "
                                    "could not depend on Rill"))
    for name in REQUIRED_PLATFORMS:
        if name not in declared:
            findings.append(Finding(path, line, f"no {name} minimum: declare Combine's "
                                    f"({'.'.join(map(str, COMBINE_MINIMUMS[name]))})"))
    return findings


def library_targets(manifest: str) -> list:
    """The source folders of the manifest's `.target`s that live under Sources/."""
    code = blank(manifest)
    folders = []
    for match in re.finditer(r"\.target\s*\(", code):
        end = balanced(code, match.end() - 1)
        call = manifest[match.end():end - 1]
        name = re.search(r'\bname\s*:\s*"([^"]+)"', call)
        folder = re.search(r'\bpath\s*:\s*"([^"]+)"', call)
        if not name:
            continue
        folder_path = folder.group(1) if folder else f"Sources/{name.group(1)}"
        if folder_path.startswith("Sources/"):
            folders.append(folder_path)
    return folders


def declared_gated_types(sources: dict) -> list:
    """Rules for the types that Rill declares with an `@available` of its own: their uses need the same gate."""
    rules = []
    pattern = re.compile(r"@available\s*\(([^)]*)\)\s*(?:@\w+(?:\([^)]*\))?\s*)*(?:(?:public|package|internal|"
                         r"fileprivate|private|final|open|indirect)\s+)*(?:struct|class|enum|protocol|actor|"
                         r"typealias)\s+(\w+)")
    for path, text in sources.items():
        for args, name in pattern.findall(blank(text)):
            gate = parse_availability(args)
            needs = {p: gate[p] for p in gate if gate[p] > COMBINE_MINIMUMS[p] and gate[p] < (999, 0)}
            if needs:
                rules.append(Rule(rf"\b{re.escape(name)}\b", needs, f"{name} is declared @available({describe(needs)})"))
    return rules


def check_required_gates(sources: dict) -> list:
    findings = []
    for path, pattern, needs, what in REQUIRED_GATES:
        if path not in sources:
            findings.append(Finding(path, 1, f"{what}: file not found; update REQUIRED_GATES in "
                                    "scripts/check-platforms.py"))
            continue
        rule = Rule(pattern, needs, f"{what} is Combine API from {describe(needs)} and keeps Combine's gate")
        found = scan(path, sources[path], [rule])
        matches = len(rule.regex.findall(blank(sources[path])))
        if matches == 0:
            findings.append(Finding(path, 1, f"{what}: declaration not found; update REQUIRED_GATES in "
                                    "scripts/check-platforms.py"))
        findings += [f for f in found if what in f.message]
    return findings


def check_tree(root: str) -> list:
    manifest_path = "Package.swift"
    manifest = read(os.path.join(root, manifest_path))
    findings = check_manifest(manifest_path, manifest)
    sources = {}
    for folder in library_targets(manifest):
        for directory, _, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                if name.endswith(".swift"):
                    full = os.path.join(directory, name)
                    sources[os.path.relpath(full, root)] = read(full)
    for path, text in sorted(sources.items()):
        for match in re.finditer(r"^[ \t]*(?:@\w+\s+)*(?:\w+\s+)?import\s+Synchronization\b", blank(text),
                                 re.MULTILINE):
            findings.append(Finding(path, text[:match.start()].count("\n") + 1,
                                    "imports Synchronization, which needs macOS 15/iOS 18: use Locked or a gate"))
    own = declared_gated_types(sources)
    types = frozenset(name for text in sources.values()
                      for name in re.findall(r"\b(?:struct|class|enum|protocol|actor|typealias)\s+(\w+)", blank(text)))
    for path, text in sorted(sources.items()):
        findings += scan(path, text, own, types)
    findings += check_required_gates(sources)
    unique = {str(f): f for f in findings}
    return list(unique.values())


# The checker's own fixtures: (snippet, the number of findings expected, what it shows).
SELF_TEST = [
    ("import Synchronization\nlet m = Mutex(0)\n", 1, "Mutex outside a gate"),
    ("let lock = Mutex<Int>(0)", 1, "Mutex<Int>"),
    ("let a = Atomic<Int>(0)", 1, "Atomic"),
    ("let a = ManagedAtomic<Int>(0)", 0, "swift-atomics' ManagedAtomic is not the standard library's Atomic"),
    ("@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)\nlet m = Mutex(0)", 0,
     "a gated Mutex"),
    ("func f(timeout: Duration) {}", 1, "Duration in a signature"),
    ("@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)\nfunc f(timeout: Duration) {}", 0,
     "a gated signature"),
    ("@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)\npublic func f(\n  timeout: Duration,\n"
     "  quiet: Duration = .milliseconds(50)\n) async -> Bool {\n  let clock = ContinuousClock()\n"
     "  try? await Task.sleep(for: .milliseconds(1))\n  return true\n}", 0,
     "a gate covers a multi-line signature and the body"),
    ("@available(macOS 13.0, iOS 16.0, *)\nfunc f(timeout: Duration) {}", 1, "a gate that leaves tvOS and watchOS out"),
    ("@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)\nfunc f(timeout: Duration) {}", 1,
     "a gate too old"),
    ("@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)\nfunc f(timeout: Duration) {}\n"
     "func g(timeout: Duration) {}", 1, "a gate applies to its own declaration only"),
    ("@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)\nlet a: Duration = .zero\nlet b: Duration = .zero",
     1, "a gate on a stored property ends with it"),
    ("@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)\nextension Foo {\n  func f() {\n"
     "    let c = ContinuousClock()\n  }\n}", 0, "a gate on an extension covers its members"),
    ("extension Foo {\n  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)\n  func f() {}\n  func g() {\n"
     "    try await Task.sleep(for: .seconds(1))\n  }\n}", 1, "a gate on one member does not cover the next"),
    ("func f() async {\n  if #available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *) {\n"
     "    try? await Task.sleep(for: .seconds(1))\n  } else {\n    try? await Task.sleep(for: .seconds(2))\n  }\n}",
     1, "if #available gates its block, not the else"),
    ("func f() async {\n  guard #available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *) else { return }\n"
     "  try? await Task.sleep(for: .seconds(1))\n}", 0, "guard #available gates the rest of the scope"),
    ("func f() async {\n  try? await Task.sleep(nanoseconds: 1_000)\n  await Task.yield()\n}", 0,
     "Task.sleep(nanoseconds:) deploys to macOS 10.15"),
    ("let (stream, continuation) = AsyncStream.makeStream(of: Int.self)", 0, "makeStream is back-deployed"),
    ("// Task.sleep(for: .seconds(1)) and a Duration\nlet s = \"Duration ContinuousClock\"", 0,
     "comments and strings are not code"),
    ("/* a /* nested */ Duration */ let x = 1", 0, "nested block comments"),
    ("let s = \"\"\"\n  Duration\n  \"\"\"\nlet t = #\"Mutex \"quoted\" \"#", 0, "multi-line and raw strings"),
    ("#if os(Linux)\nlet m = Mutex(0)\n#else\nlet m = NSLock()\n#endif", 0, "Linux-only code is not built for Apple"),
    ("#if canImport(Darwin)\nlet d: Duration = .zero\n#elseif canImport(Glibc)\nlet d: Duration = .zero\n#endif", 1,
     "the Darwin branch is checked, the Glibc one is not"),
    ("#if canImport(Darwin)\nimport Darwin\n#else\nlet m = Mutex(0)\n#endif", 0, "the #else after canImport(Darwin)"),
    ("final class Play<Clock: Scheduler> {\n  let clock: Clock\n}", 0, "a generic parameter named Clock"),
    ("func f(_ c: some Clock<Duration>) {}", 2, "the standard library's Clock"),
    ("func f() throws(MyError) -> Int { 0 }\ninit(x: Int) throws(MyError) {}", 0,
     "typed throws on a declaration deploys anywhere"),
    ("let body: (Int) throws(MyError) -> Void", 1, "a function type with a typed throw"),
    ("let body: () throws(any Error) -> Void", 0, "throws(any Error) is plain throws"),
    ("func marbles<each Value>(_ v: repeat each Value) {}", 0, "parameter packs in a function"),
    ("struct Box<each Value> {}", 1, "parameter packs in a type"),
    ("let p: any Publisher<Int, Never>", 1, "a constrained existential"),
    ("func f(_ p: some Publisher<Int, Never>) {}", 0, "an opaque constrained type"),
    ("struct P<Base: AsyncSequence>: Publisher {\n  typealias Failure = Base.Failure\n}", 1,
     "an AsyncSequence's typed Failure"),
    ("while let x = try await it.next(isolation: nil) {}", 1, "next(isolation:)"),
    ("let parts = text.split(separator: \"--\")", 1, "split with a String separator"),
    ("let lines = text.split(separator: \"\\n\")", 0, "split with a Character separator"),
    ("let ok = text.contains(\"ab\")", 1, "contains(String) without Foundation"),
    ("import Foundation\nlet ok = text.contains(\"ab\")", 0, "contains(String) with Foundation"),
    ("let s = date.formatted(.iso8601)", 1, "Foundation's formatted()"),
    ("let now = Date.now", 1, "Date.now"),
    ("let u = URL(filePath: \"/tmp\")", 1, "URL(filePath:)"),
    ("let t = URL.Template(\"/a/{b}\")", 1, "URL.Template"),
    ("let r = try Regex(\"a+\")", 1, "Regex"),
    ("withObservationTracking { } onChange: { }", 1, "Observation"),
    ("#if canImport(Observation)\npublic import Observation\n#endif", 0, "importing Observation"),
    ("extension Observable where Self: AnyObject {}", 1, "extending Observable"),
    ("func f<M: Observable & AnyObject>(_ m: M) {}\nlet o: any ObservableObject", 1, "Observable, not ObservableObject"),
    ("writer.span(span, tid: 1)", 0, "a method named span"),
    ("let s = array.span", 1, "Array.span"),
    ("await withDiscardingTaskGroup { group in }", 1, "discarding task groups"),
    ("let x: Int128 = 0", 1, "Int128"),
    ("$0.assign(to: &$value)", 1, "Combine's assign(to:)"),
    ("@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)\nextension P {\n  func f() { $0.assign(to: &$v) }\n}",
     0, "a gated assign(to:)"),
    ("@available(*, unavailable)\nfunc f(timeout: Duration) {}", 0, "an unavailable declaration"),
    ("@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)\n@inlinable\npublic func f(d: Duration) {}", 0,
     "attributes after the gate"),
    ("@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *) public var d: Duration { .zero }", 0,
     "a gate on the same line"),
    ("@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)\nfinal class Sub<Base: AsyncSequence>:\n"
     "  Subscription, Sendable\nwhere Base.Failure == Never {\n}", 0, "a type header over several lines"),
    ("protocol P {\n  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)\n  func f(_ d: Duration)\n"
     "  func g(_ d: Duration)\n}", 1, "a bodiless requirement ends at the next declaration"),
]

MANIFEST_TESTS = [
    ('platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1), .macCatalyst(.v13)],', 0),
    ('platforms: [.macOS(.v15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],', 1),
    ('platforms: [.macOS("10.15"), .iOS("13.0"), .tvOS(.v13), .watchOS(.v6)],', 0),
    ('platforms: [.macOS(.v10_15), .iOS(.v13)],', 2),
    ('platforms: [.macOS(.v10_15), .iOS(.v16), .tvOS(.v13), .watchOS(.v6), .visionOS(.v2)],', 2),
    ('name: "Rill",', 1),
]


def self_test() -> int:
    failures = 0
    for snippet, expected, what in SELF_TEST:
        found = scan("fixture.swift", snippet, [])
        if len(found) != expected:
            failures += 1
            print(f"FAIL {what}: expected {expected} finding(s), got {len(found)}")
            for finding in found:
                print(f"     {finding}")
    for manifest, expected in MANIFEST_TESTS:
        found = check_manifest("Package.swift", f"let package = Package(\n  {manifest}\n)")
        if len(found) != expected:
            failures += 1
            print(f"FAIL manifest {manifest}: expected {expected} finding(s), got {len(found)}")
            for finding in found:
                print(f"     {finding}")
    gated = {"A.swift": "@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)\npublic struct Pacer {}\n",
             "B.swift": "func f() -> Pacer { Pacer() }\n"}
    found = scan("B.swift", gated["B.swift"], declared_gated_types(gated))
    if len(found) != 2:
        failures += 1
        print(f"FAIL a type Rill declares with a gate needs the gate where it is used: got {len(found)} finding(s)")
    total = len(SELF_TEST) + len(MANIFEST_TESTS) + 1
    print(f"check-platforms self-test: {total - failures} of {total} fixtures pass")
    return 1 if failures else 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if sys.argv[1:]:
        print(__doc__)
        return 2
    findings = check_tree(ROOT)
    for finding in sorted(findings, key=lambda f: (f.path, f.line)):
        print(finding)
    if findings:
        print(f"check-platforms: {len(findings)} finding(s); Apple platforms would not build these at Combine's "
              "minimums", file=sys.stderr)
        return 1
    print("check-platforms: Package.swift declares Combine's minimums, no library target imports Synchronization, "
          "and no known newer API is used without @available")
    return 0


if __name__ == "__main__":
    sys.exit(main())
