package version

import "testing"

func TestFromModule(t *testing.T) {
	for _, tt := range []struct{ module, want string }{
		{"v0.4.0", "0.4.0"},
		{"v1.2.3", "1.2.3"},
		{"v1.0.0-rc.1", "1.0.0rc1"},
		{"v1.0.0-beta.2", "1.0.0b2"},
		{"", Dev},
		{"(devel)", Dev},
		{"v0.4.0+dirty", Dev},
		{"v0.0.0-20261130174034-9b2fe42abcde", Dev},
		{"v0.4.1-0.20261130174034-9b2fe42abcde", Dev},
		{"v0.4.1-rc.1.0.20261130174034-9b2fe42abcde", Dev},
		{"v0.4.1-0.20261130174034-9b2fe42abcde+dirty", Dev},
		{"v1.0.0-foo", Dev},
	} {
		if got := fromModule(tt.module); got != tt.want {
			t.Errorf("fromModule(%q) = %q, want %q", tt.module, got, tt.want)
		}
	}
}

func TestSpecifierAllows(t *testing.T) {
	for _, tt := range []struct {
		spec    string
		allowed []string
		refused []string
	}{
		{">=0.4", []string{"0.4", "0.4.0", "0.4.1", "1.0.0"}, []string{"0.3.9", "0.4.0rc1", Dev}},
		{">0.4", []string{"0.4.1", "0.5"}, []string{"0.4", "0.4.0"}},
		{"<0.5", []string{"0.4.9", "0.5.0rc1"}, []string{"0.5", "0.5.0", "1.0"}},
		{"<=0.5", []string{"0.5.0", "0.4"}, []string{"0.5.1"}},
		{"==0.4", []string{"0.4", "0.4.0"}, []string{"0.4.1", "0.4.0rc1"}},
		{"==0.4.*", []string{"0.4", "0.4.0", "0.4.7"}, []string{"0.5.0", "0.3.9"}},
		{"!=0.4.2", []string{"0.4.1", "0.4.3"}, []string{"0.4.2"}},
		{"!=0.4.*", []string{"0.3.1", "0.5.0"}, []string{"0.4.0", "0.4.2"}},
		{"~=0.4", []string{"0.4.0", "0.9.1"}, []string{"0.3.9", "1.0.0"}},
		{"~=0.4.2", []string{"0.4.2", "0.4.9"}, []string{"0.4.1", "0.5.0"}},
		{">=0.4, <0.6", []string{"0.4.0", "0.5.9"}, []string{"0.3.0", "0.6.0"}},
		{" >= 0.4 ,!=0.4.1", []string{"0.4.0", "0.4.2"}, []string{"0.4.1"}},
		{">=1.0.0rc1", []string{"1.0.0rc1", "1.0.0rc2", "1.0.0"}, []string{"1.0.0b3", "0.9"}},
	} {
		s, err := ParseSpecifier(tt.spec)
		if err != nil {
			t.Errorf("ParseSpecifier(%q): %v", tt.spec, err)
			continue
		}
		for _, v := range tt.allowed {
			if !s.Allows(v) {
				t.Errorf("%q refuses %s; it should allow it", tt.spec, v)
			}
		}
		for _, v := range tt.refused {
			if s.Allows(v) {
				t.Errorf("%q allows %s; it should refuse it", tt.spec, v)
			}
		}
	}
}

func TestParseSpecifierErrors(t *testing.T) {
	for _, tt := range []struct{ spec, want string }{
		{"", `is empty; write a version clause such as ">=0.4"`},
		{"0.4", `clause "0.4" has no operator; start it with one of ~= == != <= >= < >`},
		{">=0.4,", `clause "" has no operator; start it with one of ~= == != <= >= < >`},
		{">=four", `clause ">=four": "four" is not a version such as 0.4 or 1.0.0rc1`},
		{"~=1", `clause "~=1": ~= needs at least two numbers (~=0.4 means >=0.4, ==0.*)`},
		{">=0.4.*", `clause ">=0.4.*": "0.4.*" is not a version such as 0.4 or 1.0.0rc1`},
		{"===0.4", `clause "===0.4": "=0.4" is not a version such as 0.4 or 1.0.0rc1`},
	} {
		_, err := ParseSpecifier(tt.spec)
		if err == nil || err.Error() != tt.want {
			t.Errorf("ParseSpecifier(%q) = %v, want %s", tt.spec, err, tt.want)
		}
	}
}

// Tag names the git tag of each release, and the tag, read back as a Go
// module version, is that release again.
func TestTag(t *testing.T) {
	for v, want := range map[string]string{
		"0.4.0":    "v0.4.0",
		"1.0.0rc1": "v1.0.0-rc.1",
		"1.0.0a2":  "v1.0.0-alpha.2",
		"1.0.0b3":  "v1.0.0-beta.3",
		"dev":      "",
		"":         "",
	} {
		got := Tag(v)
		if got != want {
			t.Errorf("Tag(%q) = %q, want %q", v, got, want)
		}
		if got != "" && fromModule(got) != v {
			t.Errorf("fromModule(Tag(%q)) = %q", v, fromModule(got))
		}
	}
}
