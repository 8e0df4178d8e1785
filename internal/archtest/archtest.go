// Package archtest holds the dependency rules of docs/architecture.md as
// data, and checks a package graph against them. Its test reads the
// module's packages with go/build (non-test files only: tests may import
// what they need) and fails when a rule is broken, naming the rule.
package archtest

import (
	"fmt"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Module is the module path; rules name packages relative to it.
const Module = "github.com/bottlepost/bottlepost"

// Rule is one dependency rule: the packages it is about (Pkgs: a path, or a
// path ending in "/..." for it and everything below), and either the only
// bottlepost packages they may import (Allow, when not nil) or standard
// packages they must not import (Deny: a path, or "net/..." for net and
// everything below). Why is the sentence of docs/architecture.md it holds.
type Rule struct {
	Pkgs   []string
	Except []string // packages of Pkgs the rule does not apply to
	Allow  []string
	Deny   []string
	Why    string
}

// noIO are the standard packages of I/O, network and clock.
var noIO = []string{"os", "os/...", "net", "net/http", "net/smtp", "net/textproto", "crypto/tls", "syscall", "io/fs", "path/filepath", "log", "log/slog"}

// Registry is the package that registers the variants: the only importer
// of every variant package.
const Registry = "rules/variants"

// NotVariants are the packages under rules/ that are not variants: the
// core, the test helpers, the registry and the HTML board. Every other
// package under rules/ is a variant package, and must be registered (be
// imported by Registry), so that no variant escapes the rules below.
var NotVariants = []string{"rules", "rules/rulestest", Registry, "rules/htmlboard"}

// Rules are docs/architecture.md's dependency rules, for the variant
// packages given (Variants finds them in a package graph).
func Rules(variants []string) []Rule {
	return []Rule{
		{Pkgs: []string{"rules/..."}, Except: []string{"rules/rulestest"}, Allow: []string{"rules/...", "lang"},
			Deny: append([]string{"time", "crypto/rand"}, noIO...),
			Why:  "rules is pure: no I/O, no clock, no randomness of its own; it knows nothing of mail or storage"},
		{Pkgs: variants, Allow: []string{"rules", "lang"},
			Why: "each variant package builds on the rules core only"},
		{Pkgs: []string{"rules/htmlboard"}, Allow: []string{"rules", "lang"},
			Why: "the HTML board draws a rules.View alone: it knows no variant and no registry"},
		{Pkgs: []string{"mailfmt"}, Allow: []string{}, Deny: []string{"os", "os/...", "net", "net/http", "net/smtp", "crypto/tls", "syscall", "io/fs"},
			Why: "mailfmt is the mail format, pure: it reads and writes RFC 5322 and moves nothing"},
		{Pkgs: []string{"timing"}, Allow: []string{"lang"}, Deny: noIO,
			Why: "timing is pure: time controls and schedules, no clock of its own"},
		{Pkgs: []string{"templates"}, Allow: []string{"lang"}, Why: "templates are data, written in the catalogs' languages (lang)"},
		{Pkgs: []string{"lang"}, Allow: []string{}, Deny: append([]string{"time"}, noIO...),
			Why: "lang is the languages and their catalogs of messages, pure data, which the rules, the templates and the game service write with"},
		{Pkgs: []string{"rating"}, Allow: []string{}, Deny: append([]string{"time", "crypto/rand", "math/rand", "math/rand/v2"}, noIO...),
			Why: "rating is the Glicko-2 maths, pure: no I/O, no clock, no randomness, so that the service and the rebuild from the archive compute the same bits"},
		{Pkgs: []string{"store"}, Allow: []string{"mailfmt"},
			Why: "store knows nothing of rules, games or mail transport (it keys addresses with mailfmt.Key)"},
		{Pkgs: []string{"record"}, Allow: []string{"rules", Registry, "store", "lang"}, Deny: noIO,
			Why: "record is the record format: it reads the store's export and replays with the rules, knows nothing of the service (game), and does no I/O of its own"},
		{Pkgs: []string{"game"}, Allow: []string{"rules", Registry, "rules/htmlboard", "record", "store", "templates", "timing", "mailfmt", "rating", "lang"},
			Deny: []string{"net", "net/http", "net/smtp", "crypto/tls"},
			Why:  "game knows nothing of the network: it uses the mail format (mailfmt), never the transport (mailer)"},
		{Pkgs: []string{"mailer"}, Allow: []string{"mailfmt", "mailer/smtpclient"},
			Why: "mailer moves mail and knows nothing of games or the store (the outbox sees a Queue)"},
		{Pkgs: []string{"mailer/smtpclient"}, Allow: []string{},
			Why: "the SMTP client speaks SMTP only: it knows nothing of the outbox that uses it, nor of the mail format"},
		{Pkgs: []string{"config"}, Allow: []string{"timing", "lang"},
			Why: "config reads settings; it does not import the packages it configures"},
		{Pkgs: []string{"web"}, Allow: []string{"game", "rules", "rules/htmlboard", Registry, "lang"},
			Why: "web renders what the game service reads; it does not move mail"},
		{Pkgs: []string{"daemon"}, Allow: []string{"config", "game", "lang", "mailer", "mailer/smtpclient", "mailfmt", "record", "store", "timing", "web"},
			Why: "daemon wires sources → game → outbox; commands and load tests sit above it"},
		{Pkgs: []string{"loadtest"}, Allow: []string{"mailer", "mailfmt", "rules", Registry, "store", "lang"},
			Why: "loadtest drives a daemon process by mail, never the service in-process"},
		{Pkgs: []string{"..."}, Except: []string{"cmd/...", "internal/...", "rules/rulestest"},
			Deny: []string{Module + "/cmd/...", Module + "/internal/...", Module + "/rules/rulestest"},
			Why:  "nothing imports a command, and the test helpers (internal/..., rules/rulestest) are for tests only"},
		{Pkgs: []string{"..."}, Except: append([]string{Registry, "rules/rulestest"}, variants...),
			Deny: full(variants),
			Why:  "rules/variants is the only importer of every variant package"},
	}
}

// full gives module-relative paths in full.
func full(rel []string) []string {
	out := make([]string, len(rel))
	for i, p := range rel {
		out[i] = Module + "/" + p
	}
	return out
}

// Variants finds the variant packages of graph, sorted: every package
// under rules/ but the NotVariants, whether Registry imports it or not
// (Unregistered names those it does not), and any other that Registry
// imports from under rules/.
func Variants(graph map[string][]string) []string {
	var out []string
	for pkg := range graph {
		if match("rules/...", pkg) && !slices.Contains(NotVariants, pkg) {
			out = append(out, pkg)
		}
	}
	for _, imp := range graph[Registry] {
		rel, ours := strings.CutPrefix(imp, Module+"/")
		if ours && match("rules/...", rel) && !slices.Contains(NotVariants, rel) && !slices.Contains(out, rel) {
			out = append(out, rel)
		}
	}
	sort.Strings(out)
	return out
}

// Unregistered cross-checks the variant packages with the registry: a
// package under rules/ that is not one of NotVariants must be a variant
// registered in Registry, and Registry must import no other package under
// rules/ than the core and the variants. One line each, sorted.
func Unregistered(graph map[string][]string) []string {
	registered := map[string]bool{}
	for _, imp := range graph[Registry] {
		if rel, ours := strings.CutPrefix(imp, Module+"/"); ours {
			registered[rel] = true
		}
	}
	var out []string
	for _, v := range Variants(graph) {
		if !registered[v] {
			out = append(out, fmt.Sprintf("%s is neither a variant registered in %s nor one of the packages that are not variants (%s): register it, or add it to archtest.NotVariants with a rule of its own",
				v, Registry, strings.Join(NotVariants, ", ")))
		}
	}
	for rel := range registered {
		if rel != "rules" && slices.Contains(NotVariants, rel) {
			out = append(out, fmt.Sprintf("%s imports %s, which is not a variant", Registry, rel))
		}
	}
	sort.Strings(out)
	return out
}

// match reports whether path (module-relative, or a standard package)
// matches pattern: equal, or below a pattern ending in "/...", or anything
// for "...".
func match(pattern, path string) bool {
	if pattern == "..." {
		return true
	}
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return path == base || strings.HasPrefix(path, base+"/")
	}
	return path == pattern
}

func matchAny(patterns []string, path string) bool {
	return slices.ContainsFunc(patterns, func(p string) bool { return match(p, path) })
}

// Check returns every broken rule in graph (module-relative package →
// its imports, full paths), one line each, sorted: the dependency rules of
// Rules for the variant packages the graph holds, and the registry's
// cross-check (Unregistered).
func Check(graph map[string][]string) []string {
	out := Unregistered(graph)
	rules := Rules(Variants(graph))
	for pkg, imports := range graph {
		for _, r := range rules {
			if !matchAny(r.Pkgs, pkg) || matchAny(r.Except, pkg) {
				continue
			}
			for _, imp := range imports {
				rel, ours := strings.CutPrefix(imp, Module+"/")
				switch {
				case ours && r.Allow != nil && !matchAny(r.Allow, rel):
					out = append(out, fmt.Sprintf("%s imports %s: %s", pkg, rel, r.Why))
				case matchAny(r.Deny, imp):
					out = append(out, fmt.Sprintf("%s imports %s: %s", pkg, imp, r.Why))
				}
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// Graph reads the module rooted at root: each package's module-relative
// path and the imports of its non-test files. The separate modules below
// it (bench/...) and testdata are left out.
func Graph(root string) (map[string][]string, error) {
	graph := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
			return filepath.SkipDir
		}
		if path != root {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module
			}
		}
		p, err := build.ImportDir(path, 0)
		if err != nil {
			if _, ok := err.(*build.NoGoError); ok {
				return nil
			}
			return fmt.Errorf("archtest: %s: %w", path, err)
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		graph[filepath.ToSlash(rel)] = p.Imports
		return nil
	})
	return graph, err
}
