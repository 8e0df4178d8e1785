package mailfmt

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestNormalizeAddress(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"alice@example.org", "alice@example.org"},
		{"Alice@Example.ORG", "Alice@example.org"},
		{"  <Alice@Example.ORG>  ", "Alice@example.org"},
		{"Alice Lindqvist <Alice@Example.ORG>", "Alice@example.org"},
		{`"Svensson, Björn" <bjorn@EXAMPLE.com>`, "bjorn@example.com"},
		{"alice@example.org.", "alice@example.org"},
		{"john..doe@example.org", "john..doe@example.org"},
		{"games+K7Q2@BottlePost.example", "games+K7Q2@bottlepost.example"},
		{"", ""},
		{"not an address", ""},
		{"alice", ""},
		{"@example.org", ""},
		{"alice@", ""},
		{"a@b@c", ""},
		{"a@example.org, b@example.org", ""},
	}
	for _, tt := range tests {
		if got := normalize(tt.in); got != tt.want {
			t.Errorf("normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSameAddress(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"alice@example.org", "Alice@EXAMPLE.org", true},
		{"Alice <alice@example.org>", "<ALICE@example.org>", true},
		{"alice@example.org", "alice+chess@example.org", false},
		{"alice@example.org", "bob@example.org", false},
		{"junk", "junk", false},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := SameAddress(tt.a, tt.b); got != tt.want {
			t.Errorf("SameAddress(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestPlusToken(t *testing.T) {
	const base = "games@bottlepost.example"
	tests := []struct {
		name, addr, base string
		want             string
		ok               bool
	}{
		{"token", "games+k7q2m4x9@bottlepost.example", base, "k7q2m4x9", true},
		{"case of local part and domain ignored", "GAMES+k7q2m4x9@BottlePost.Example", base, "k7q2m4x9", true},
		{"token case kept", "games+K7Q2@bottlepost.example", base, "K7Q2", true},
		{"with display name", "bottlepost <games+abc@bottlepost.example>", base, "abc", true},
		{"everything after the first plus", "games+a+b@bottlepost.example", base, "a+b", true},
		{"base with display name", "games+abc@bottlepost.example", "Games <games@bottlepost.example>", "abc", true},
		{"no token", "games@bottlepost.example", base, "", false},
		{"empty token", "games+@bottlepost.example", base, "", false},
		{"other domain", "games+abc@evil.example", base, "", false},
		{"other local part", "gamesx+abc@bottlepost.example", base, "", false},
		{"prefix only", "game+abc@bottlepost.example", base, "", false},
		{"not an address", "games+abc", base, "", false},
		{"bad base", "games+abc@bottlepost.example", "nonsense", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := PlusToken(tt.addr, tt.base)
			if got != tt.want || ok != tt.ok {
				t.Errorf("PlusToken(%q, %q) = (%q, %v), want (%q, %v)", tt.addr, tt.base, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestTags(t *testing.T) {
	for _, id := range []uint64{0, 1, 42, 1234567890, math.MaxUint64} {
		tag := FormatTag(id)
		for _, subject := range []string{tag, "Re: " + tag + " Seachess: your move", "AW: [EXTERNAL] " + strings.ToUpper(tag)} {
			got, ok := ParseTag(subject)
			if !ok || got != id {
				t.Errorf("ParseTag(%q) = (%d, %v), want (%d, true)", subject, got, ok, id)
			}
		}
	}
	if got := FormatTag(42); got != "[bp-42]" {
		t.Errorf("FormatTag(42) = %q", got)
	}

	tests := []struct {
		subject string
		want    uint64
		ok      bool
	}{
		{"Re: [bp-12] move", 12, true},
		{"[bp-12] and again [bp-12]", 12, true},
		{"[bp-12] and [bp-13]", 0, false},
		{"[bp-x] [bp-7]", 7, true},
		{"no tag", 0, false},
		{"[bp-]", 0, false},
		{"[bp-012]", 0, false},
		{"[bp--12]", 0, false},
		{"[bp-+12]", 0, false},
		{"[bp-12", 0, false},
		{"[bp-12 ]", 0, false},
		{"[bp-18446744073709551616]", 0, false},
		{"[bp-99999999999999999999999]", 0, false},
		{"[bottlepost #12]", 0, false},
	}
	for _, tt := range tests {
		got, ok := ParseTag(tt.subject)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseTag(%q) = (%d, %v), want (%d, %v)", tt.subject, got, ok, tt.want, tt.ok)
		}
	}
}

func TestKey(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"bare", "alice@example.org", "alice@example.org"},
		{"local part case folded", "Alice.Smith@Example.ORG", "alice.smith@example.org"},
		{"display name", `"Smith, Alice" <Alice@example.org>`, "alice@example.org"},
		{"angle brackets", "<ALICE@example.org>", "alice@example.org"},
		{"trailing dot", "alice@example.org.", "alice@example.org"},
		{"consecutive dots (refused by net/mail)", "a..b@Example.org", "a..b@example.org"},
		{"plus address", "Games+K7Q2@Bottlepost.Example", "games+k7q2@bottlepost.example"},
		{"encoded display name", "=?utf-8?q?J=C3=BCrgen?= <J@X.test>", "j@x.test"},
		{"not an address", "alice", ""},
		{"two addresses", "a@x.test, b@x.test", ""},
		{"empty", "  ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Key(tt.in); got != tt.want {
				t.Errorf("Key(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if tt.want != "" && !SameAddress(tt.in, tt.want) {
				t.Errorf("SameAddress(%q, %q) = false", tt.in, tt.want)
			}
		})
	}
}

// TestFromKeyAgreesWithParse: the IMAP source orders mail by FromKey; it
// must name the sender Parse reads (where net/mail and our lenient parser
// disagree, too).
func TestFromKeyAgreesWithParse(t *testing.T) {
	tests := []struct{ name, from, want string }{
		{"plain", "Alice <Alice@X.test>", "alice@x.test"},
		{"encoded name", "=?utf-8?q?J=C3=BCrgen?= <j@x.test>", "j@x.test"},
		{"unknown charset in the name", "=?x-unknown?q?abc?= <u@x.test>", "u@x.test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := []byte("From: " + tt.from + "\r\nTo: games@bottlepost.test\r\nSubject: e4\r\n\r\ne4\r\n")
			k := FromKey(raw)
			if k != tt.want {
				t.Errorf("FromKey = %q, want %q", k, tt.want)
			}
			m, err := Parse(bytes.NewReader(raw), 1<<20)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if Key(m.From.Address) != k {
				t.Errorf("Parse reads the sender %q (key %q), FromKey says %q", m.From.Address, Key(m.From.Address), k)
			}
		})
	}
	for _, raw := range []string{"Subject: no from\r\n\r\n", "", "no header at all"} {
		if k := FromKey([]byte(raw)); k != "" {
			t.Errorf("FromKey(%q) = %q, want \"\"", raw, k)
		}
	}
	if k := FromKey([]byte("From: Not An Address\r\n\r\n")); k != "not an address" {
		t.Errorf("an unparsable From is keyed by itself in lower case, got %q", k)
	}
}
