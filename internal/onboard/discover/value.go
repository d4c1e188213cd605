package discover

import (
	"strconv"
	"strings"

	"github.com/fixturegen/fixturegen/internal/check/pyscan"
)

// seconds is what a deadline's seconds expression says, as far as it can
// be read without running it: a number, or an environment variable with a
// number as its default.
type seconds struct {
	value   float64 // the number, or the variable's default; valid with ok
	ok      bool
	valueAt string // path:line:col of the number
	env     string // the environment variable, or ""
	envAt   string
	// why says what could not be read, when ok is false.
	why string
	at  string // where that is
}

// maxDepth bounds how many names readSeconds follows to their
// assignments, so a cycle (x = y; y = x) ends.
const maxDepth = 8

// readSeconds reads a seconds expression: a number literal; a name bound
// to one by an assignment in scope or at module level; float(...) or
// int(...) of one; os.environ.get(NAME, DEFAULT) or os.getenv(NAME,
// DEFAULT) with a literal default (a string holding a number, or a
// number), or "... or DEFAULT".
func (s *source) readSeconds(toks []pyscan.Token, scope, before, depth int) seconds {
	if len(toks) == 0 {
		return seconds{why: "no seconds argument"}
	}
	where := s.at(toks[0])
	if depth > maxDepth {
		return seconds{why: "the seconds are defined through too many names", at: where}
	}
	if parts := split(toks, "or"); len(parts) == 2 && len(parts[0]) > 0 {
		// os.environ.get("T") or 5: the variable, or the default when it
		// is unset or empty.
		env := s.readSeconds(parts[0], scope, before, depth+1)
		def := s.readSeconds(parts[1], scope, before, depth+1)
		if env.env != "" && def.ok && def.env == "" {
			env.value, env.ok, env.valueAt, env.why, env.at = def.value, true, def.valueAt, "", ""
			return env
		}
	}
	if len(toks) == 1 {
		t := toks[0]
		switch t.Kind {
		case pyscan.Number:
			if f, err := strconv.ParseFloat(strings.ReplaceAll(text(t), "_", ""), 64); err == nil {
				return seconds{value: f, ok: true, valueAt: where}
			}
		case pyscan.String:
			if v, ok := pyscan.StringValue(text(t)); ok {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					return seconds{value: f, ok: true, valueAt: where}
				}
			}
		case pyscan.Name:
			return s.readName(text(t), scope, before, depth, where)
		}
		return seconds{why: "the seconds " + text(t) + " are not a number", at: where}
	}
	name, n := dotted(toks)
	callee := s.m.Resolve(name)
	switch {
	case n > 0 && n < len(toks) && text(toks[n]) == "(" && matching(toks, n) == len(toks)-1:
		args := splitArgs(toks[n+1 : len(toks)-1])
		switch callee {
		case "float", "int":
			if len(args) == 1 && args[0].keyword == "" {
				return s.readSeconds(args[0].toks, scope, before, depth+1)
			}
		case "os.environ.get", "os.getenv":
			return s.readEnv(args, where)
		}
	case n > 0 && callee == "os.environ" && n < len(toks) && text(toks[n]) == "[" && matching(toks, n) == len(toks)-1:
		env := s.readEnv([]arg{{toks: toks[n+1 : len(toks)-1]}}, where)
		env.why = "os.environ[" + strconv.Quote(env.env) + "] has no default"
		return env
	}
	return seconds{why: "the seconds are computed (" + compact(toks) + ")", at: where}
}

// readName follows a name to the value it was last assigned in scope
// before the line, or at module level.
func (s *source) readName(name string, scope, before, depth int, where string) seconds {
	for sc := scope; ; sc = s.m.Defs[sc].Parent {
		b := before
		if sc != scope {
			b = 0 // module-level names are set at import, before any fixture runs
		}
		if value := s.assignment(name, sc, b); value != nil {
			return s.readSeconds(value, sc, value[0].Line, depth+1)
		}
		if sc < 0 {
			break
		}
	}
	return seconds{why: "the seconds come from " + name + ", which is not assigned a number in this conftest", at: where}
}

// readEnv reads the arguments of os.environ.get or os.getenv.
func (s *source) readEnv(args []arg, where string) seconds {
	if len(args) == 0 || len(args[0].toks) != 1 || args[0].toks[0].Kind != pyscan.String {
		return seconds{why: "the environment variable's name is not a string literal", at: where}
	}
	name, ok := pyscan.StringValue(text(args[0].toks[0]))
	if !ok || name == "" {
		return seconds{why: "the environment variable's name is not a string literal", at: where}
	}
	out := seconds{env: name, envAt: s.at(args[0].toks[0])}
	if len(args) < 2 {
		out.why, out.at = "$"+name+" has no default here", where
		return out
	}
	def := s.readSeconds(args[1].toks, -1, 0, maxDepth)
	if !def.ok || def.env != "" {
		out.why, out.at = "the default of $"+name+" is not a number literal", s.at(args[1].toks[0])
		return out
	}
	out.value, out.ok, out.valueAt = def.value, true, def.valueAt
	return out
}

// compact writes tokens back as short code, for a message.
func compact(toks []pyscan.Token) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 && t.Kind == pyscan.Name && toks[i-1].Kind == pyscan.Name {
			b.WriteByte(' ')
		}
		b.WriteString(text(t))
		if b.Len() > 60 {
			return b.String()[:60] + "..."
		}
	}
	return b.String()
}
