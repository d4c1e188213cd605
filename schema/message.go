package schema

import (
	"fmt"
	"slices"
	"strings"
)

// deadline.message is a Python format string with one field a spec may
// use, {seconds}: the seconds the deadline armed for the test. The runtime
// fills it with str.format, so what the loader accepts here is exactly what
// formats without error, for the integer and the float the runtime may pass
// (an int when the seconds are whole, a float otherwise). Literal braces
// are written {{ and }}, as in any format string.

// SecondsField is the one field deadline.message may name.
const SecondsField = "seconds"

// MessagePart is one piece of deadline.message: literal text, or the
// seconds field with its format spec.
type MessagePart struct {
	// Literal is the text of a literal part, its doubled braces undone.
	Literal string
	// Field is true for the {seconds} field; Spec is what follows its
	// colon ("g" in "{seconds:g}"), empty when none does.
	Field bool
	Spec  string
}

// MessageFormat is deadline.message as its parts.
type MessageFormat []MessagePart

// HasSeconds reports whether the message places the seconds itself. Then
// the failure is the message filled in, and nothing else; without a field
// the runtime follows the message with the seconds and the timer.
func (f MessageFormat) HasSeconds() bool {
	return slices.ContainsFunc(f, func(p MessagePart) bool { return p.Field })
}

// Text is the message's literal text with the fields left out: the text a
// failure shows when the message has no field.
func (f MessageFormat) Text() string { return f.With("") }

// With is the message's literal text with seconds in place of each field,
// for a person who reads what a failure says: With("<seconds>").
func (f MessageFormat) With(seconds string) string {
	var b strings.Builder
	for _, p := range f {
		if p.Field {
			b.WriteString(seconds)
		}
		b.WriteString(p.Literal)
	}
	return b.String()
}

// MessageProblem is why a message is no format string the runtime can
// fill, and where in the message: a byte offset into the text.
type MessageProblem struct {
	Offset int
	Msg    string
}

// ParseMessage reads a deadline.message as the runtime's str.format reads
// it; Python's own rules decide, down to its messages for a stray brace.
// A message that Python formats, but not for both an int and a float of
// seconds, is a problem too: which of the two the runtime passes depends on
// the seconds a test is given at run time.
func ParseMessage(s string) (MessageFormat, *MessageProblem) {
	var f MessageFormat
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			f = append(f, MessagePart{Literal: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '}' && strings.HasPrefix(s[i:], "}}"), c == '{' && strings.HasPrefix(s[i:], "{{"):
			lit.WriteByte(c)
			i++
		case c == '}':
			return nil, &MessageProblem{i, `has a single "}"; write a literal brace as "}}"`}
		case c == '{':
			end, p := fieldEnd(s, i)
			if p != nil {
				return nil, p
			}
			spec, p := field(s[i:end+1], i)
			if p != nil {
				return nil, p
			}
			flush()
			f = append(f, MessagePart{Field: true, Spec: spec})
			i = end
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	if f.HasSeconds() && strings.TrimSpace(f.Text()) == "" {
		return nil, &MessageProblem{0, "holds nothing but the seconds: add the words around them (\"test exceeded {seconds:g} s\"), which a person reading the failure, and fixturegen triage, tell it by"}
	}
	return f, nil
}

// fieldEnd returns the index of the '}' that closes the field opened at
// s[open], counting nested braces as Python does.
func fieldEnd(s string, open int) (int, *MessageProblem) {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i, nil
			}
		}
	}
	return 0, &MessageProblem{open, `has a "{" that no "}" closes; write a literal brace as "{{"`}
}

// fieldHelp ends every problem with a field: what a field may be.
const fieldHelp = `the message may place the seconds armed with {seconds}, or with a number format, as in {seconds:g} or {seconds:.1f}; write a literal brace as "{{" or "}}"`

// field checks one replacement field, text from its '{' to its '}' at
// offset at of the message, and returns its format spec.
func field(text string, at int) (string, *MessageProblem) {
	body := text[1 : len(text)-1]
	name, spec, hasSpec := body, "", false
	if i := strings.IndexAny(body, ":!"); i >= 0 {
		name = body[:i]
		if body[i] == '!' {
			return "", &MessageProblem{at, fmt.Sprintf("converts the field %s, which a number of seconds needs no conversion for; %s", text, fieldHelp)}
		}
		spec, hasSpec = body[i+1:], true
	}
	switch {
	case name == "" || strings.Trim(name, "0123456789") == "":
		return "", &MessageProblem{at, fmt.Sprintf("has the positional field %s, which the runtime does not fill; %s", text, fieldHelp)}
	case name != SecondsField:
		return "", &MessageProblem{at, fmt.Sprintf("has the field %s, which the runtime does not fill; %s", text, fieldHelp)}
	case strings.ContainsAny(spec, "{}"):
		return "", &MessageProblem{at, fmt.Sprintf("nests a field in the format of %s; %s", text, fieldHelp)}
	}
	if hasSpec {
		if why := numberSpecProblem(spec); why != "" {
			return "", &MessageProblem{at, fmt.Sprintf("formats the seconds with %s, which %s", text, why)}
		}
	}
	return spec, nil
}

// maxFormatDigits bounds a format's width and precision. Python takes any
// that fits its integers; a message hundreds of characters wide is a typo,
// and one wide enough could exhaust the memory of the test that fails.
const maxFormatDigits = 100

// numberSpecProblem checks a format spec by Python's format-spec
// mini-language for numbers,
//
//	[[fill]align][sign][z][#][0][width][grouping][.precision][type]
//
// as int.__format__ and float.__format__ parse it, and says why the spec
// would fail for either (or for the Pythons before 3.11 the runtime runs
// under), or returns "".
func numberSpecProblem(spec string) string {
	const grammar = "[[fill]align][sign][#][0][width][grouping][.precision][type]"
	rs := []rune(spec)
	i := 0
	isAlign := func(r rune) bool { return strings.ContainsRune("<>=^", r) }
	switch {
	case len(rs) >= 2 && isAlign(rs[1]):
		i = 2
	case len(rs) >= 1 && isAlign(rs[0]):
		i = 1
	}
	if i < len(rs) && strings.ContainsRune("+- ", rs[i]) {
		i++
	}
	if i < len(rs) && rs[i] == 'z' {
		return "coerces negative zero (z): Python before 3.11 has no z, and no Python takes it for the whole seconds the runtime passes as an int; leave it out"
	}
	if i < len(rs) && rs[i] == '#' {
		i++
	}
	if i < len(rs) && rs[i] == '0' {
		i++
	}
	digits := func() (int, bool) {
		n, any := 0, false
		for i < len(rs) && rs[i] >= '0' && rs[i] <= '9' {
			if n <= maxFormatDigits {
				n = n*10 + int(rs[i]-'0')
			}
			i++
			any = true
		}
		return n, any
	}
	if width, _ := digits(); width > maxFormatDigits {
		return fmt.Sprintf("is wider than the %d characters a message's seconds may take", maxFormatDigits)
	}
	grouping := rune(0)
	if i < len(rs) && (rs[i] == ',' || rs[i] == '_') {
		grouping = rs[i]
		i++
	}
	precision := false
	if i < len(rs) && rs[i] == '.' {
		i++
		n, any := digits()
		if !any {
			return "has a \".\" with no precision after it (\".1f\", say): Python's format-spec mini-language for numbers is " + grammar
		}
		if n > maxFormatDigits {
			return fmt.Sprintf("asks for more than the %d digits a message's seconds may take", maxFormatDigits)
		}
		precision = true
	}
	typ := ""
	if i < len(rs) {
		typ = string(rs[i])
		i++
	}
	if i < len(rs) {
		return "is not a format Python's format-spec mini-language for numbers reads: " + grammar
	}
	switch typ {
	case "", "n", "e", "E", "f", "F", "g", "G", "%":
	case "d", "b", "o", "x", "X", "c":
		return fmt.Sprintf("writes whole numbers only (%s), and the seconds a test is given may have a fraction (from seconds_env, say); use g, f, e or %% instead, or no type", typ)
	default:
		return fmt.Sprintf("ends in %q, which is no type of number: use g, f, e, %% or n, or no type", typ)
	}
	if precision && (typ == "" || typ == "n") {
		return "gives a precision without a type of fraction, which Python refuses for the whole seconds the runtime passes as an int; add one, as in \".2g\" or \".1f\""
	}
	if grouping != 0 && typ == "n" {
		return fmt.Sprintf("groups digits with %q and writes them by the locale (n), which Python refuses together; keep one", grouping)
	}
	return ""
}
