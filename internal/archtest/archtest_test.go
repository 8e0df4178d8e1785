package archtest

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDependencyRules checks the module's packages against the rules of
// docs/architecture.md.
func TestDependencyRules(t *testing.T) {
	graph, err := Graph(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"rules", "game", "mailer", "mailer/smtpclient", "mailfmt", "store", "daemon", "cmd/bottlepost"} {
		if _, ok := graph[pkg]; !ok {
			t.Fatalf("package %s not found: the graph has %d packages", pkg, len(graph))
		}
	}
	variants := Variants(graph)
	if len(variants) == 0 {
		t.Fatalf("no variant package found under rules/ (the graph has %d packages)", len(graph))
	}
	t.Logf("variant packages: %v", variants)
	for _, broken := range Check(graph) {
		t.Error(broken)
	}
}

// TestCheckFindsBrokenRules: each kind of rule fails on a graph that breaks
// it, and passes on one that keeps it.
func TestCheckFindsBrokenRules(t *testing.T) {
	const m = Module + "/"
	tests := []struct {
		name  string
		graph map[string][]string
		want  string // in the one line Check reports; "" for none
	}{
		{"game imports the transport", map[string][]string{"game": {m + "mailer", "strings"}}, "game imports mailer"},
		{"game uses the format", map[string][]string{"game": {m + "mailfmt", m + "store", "net/mail"}}, ""},
		{"game opens a socket", map[string][]string{"game": {"net"}}, "game imports net"},
		{"the rating maths reads the clock", map[string][]string{"rating": {"math", "time"}}, "rating imports time"},
		{"the rating maths imports the store", map[string][]string{"rating": {"math", m + "store"}}, "rating imports store"},
		{"the service rates", map[string][]string{"game": {m + "rating", m + "store"}}, ""},
		{"rules reads the clock", map[string][]string{"rules/chess": {m + "rules", "time"}}, "rules/chess imports time"},
		{"rules reads a file", map[string][]string{"rules": {"os"}}, "rules imports os"},
		{"a variant imports another", map[string][]string{"rules/battle": {m + "rules", m + "rules/chess"}}, "rules/battle imports rules/chess"},
		{"store knows rules", map[string][]string{"store": {m + "rules"}}, "store imports rules"},
		{"config imports game", map[string][]string{"config": {m + "game"}}, "config imports game"},
		{"mailer imports store", map[string][]string{"mailer": {m + "store"}}, "mailer imports store"},
		{"the smtp client imports the outbox", map[string][]string{"mailer/smtpclient": {m + "mailer", "net"}}, "mailer/smtpclient imports mailer"},
		{"the smtp client speaks smtp", map[string][]string{"mailer/smtpclient": {"net", "crypto/tls"}, "mailer": {m + "mailer/smtpclient"}}, ""},
		{"mailfmt opens files", map[string][]string{"mailfmt": {"os"}}, "mailfmt imports os"},
		{"the service imports a variant", map[string][]string{"game": {m + "rules/seachess"}}, "game imports rules/seachess"},
		{"a command is imported", map[string][]string{"daemon": {m + "cmd/bottlepost"}}, "cmd/bottlepost"},
		{"a test helper in production", map[string][]string{"mailer": {m + "internal/dovecottest"}}, "internal/dovecottest"},
		{"the registry imports the variants", map[string][]string{"rules/variants": {m + "rules", m + "rules/chess"}}, ""},
		{"the load test imports the service", map[string][]string{"loadtest": {m + "game"}}, "loadtest imports game"},
		{"the record format imports the service", map[string][]string{"record": {m + "store", m + "game"}}, "record imports game"},
		{"a new variant left out of the registry", map[string][]string{
			Registry: {m + "rules", m + "rules/chess"}, "rules/chess": {m + "rules"}, "rules/shogi": {m + "rules"}},
			"rules/shogi is neither a variant registered in rules/variants"},
		{"a new registered variant imports another", map[string][]string{
			Registry: {m + "rules", m + "rules/chess", m + "rules/shogi"}, "rules/chess": {m + "rules"}, "rules/shogi": {m + "rules", m + "rules/chess"}},
			"rules/shogi imports rules/chess"},
		{"the service imports a new variant", map[string][]string{
			Registry: {m + "rules", m + "rules/shogi"}, "rules/shogi": {m + "rules"}, "game": {m + "rules/shogi"}},
			"game imports rules/shogi"},
		{"a new variant registered and kept apart", map[string][]string{
			Registry: {m + "rules", m + "rules/shogi"}, "rules/shogi": {m + "rules"}, "game": {m + "rules/variants"}}, ""},
		{"the HTML board imports the registry", map[string][]string{"rules/htmlboard": {m + "rules", m + "rules/variants"}},
			"rules/htmlboard imports rules/variants"},
		{"the HTML board imports a variant", map[string][]string{"rules/htmlboard": {m + "rules", m + "rules/seachess"}},
			"rules/htmlboard imports rules/seachess"},
		{"the registry registers the HTML board", map[string][]string{Registry: {m + "rules", m + "rules/htmlboard"}},
			"rules/variants imports rules/htmlboard, which is not a variant"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Check(tt.graph)
			if tt.want == "" {
				if len(got) != 0 {
					t.Errorf("reported %q, want nothing", got)
				}
				return
			}
			if len(got) == 0 || !strings.Contains(strings.Join(got, "\n"), tt.want) {
				t.Errorf("reported %q, want a line with %q", got, tt.want)
			}
		})
	}
}
