package lang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A message is written in the code by one of these calls, its English
// format (the key) a string literal at the argument's index: lang.Msg,
// any method Tr (Lang.Tr; the game service's draft.tr), the game
// service's userf and draft.notice, and rules.Errorf; lang.Keys declares
// the messages looked up by value (Lang.Word), each argument a literal.
var keyed = map[string]int{"Fail": 1, "Msg": 0, "Tr": 0, "tr": 0, "notice": 0, "userf": 0, "Errorf@rules": 3}

// templateKey finds the messages of the templates: {{t "…" …}} and (t "…").
var templateKey = regexp.MustCompile(`[{(]\s*t\s+("(?:[^"\\]|\\.)*"|` + "`[^`]*`" + `)`)

// sources are the messages the code and the templates write, with where.
func sources(t *testing.T) map[string][]string {
	t.Helper()
	root := ".."
	keys := map[string][]string{}
	fset := token.NewFileSet()
	consts := stringConsts(t, root)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "docs") {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go"):
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			pkg := f.Name.Name
			literal := func(e ast.Expr) (string, bool) { return literalIn(e, consts[filepath.Dir(path)]) }
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				var name string
				switch fn := call.Fun.(type) {
				case *ast.Ident:
					name = fn.Name
					if name == "Errorf" && pkg == "rules" {
						name = "Errorf@rules"
					}
				case *ast.SelectorExpr:
					name = fn.Sel.Name
					if x, ok := fn.X.(*ast.Ident); ok && x.Name == "rules" && name == "Errorf" {
						name = "Errorf@rules"
					}
					if name == "Msg" || name == "Fail" {
						if x, ok := fn.X.(*ast.Ident); !ok || x.Name != "lang" {
							name = ""
						}
					}
				}
				if name == "Keys" {
					for _, a := range call.Args {
						key, ok := literal(a)
						if !ok {
							t.Errorf("%s: lang.Keys takes string literals only", fset.Position(a.Pos()))
							continue
						}
						keys[key] = append(keys[key], fset.Position(a.Pos()).String())
					}
					return true
				}
				i, ok := keyed[name]
				if !ok || len(call.Args) <= i {
					return true
				}
				where := fset.Position(call.Pos()).String()
				key, ok := literal(call.Args[i])
				if !ok {
					if passedOn(call.Args[i]) {
						return true
					}
					t.Errorf("%s: the message is not a string literal: every message must be in the catalogs, so its key must be seen", where)
					return true
				}
				keys[key] = append(keys[key], where)
				return true
			})
		case strings.HasPrefix(filepath.ToSlash(path), "../templates/") && (strings.HasSuffix(path, ".txt") || strings.HasSuffix(path, ".html")):
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range templateKey.FindAllStringSubmatch(string(b), -1) {
				key, err := strconv.Unquote(m[1])
				if err != nil {
					t.Errorf("%s: %s: %v", path, m[1], err)
					continue
				}
				keys[key] = append(keys[key], path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// stringConsts are the string constants declared at the top of each
// package (by directory): a message may be one (const help = `…`).
func stringConsts(t *testing.T, root string) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				v := spec.(*ast.ValueSpec)
				for i, name := range v.Names {
					if i < len(v.Values) {
						if s, ok := literalIn(v.Values[i], nil); ok {
							if out[dir] == nil {
								out[dir] = map[string]string{}
							}
							out[dir][name.Name] = s
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// literalIn is a string literal's value, a string constant's of the
// package (consts), or a sum of them.
func literalIn(e ast.Expr, consts map[string]string) (string, bool) {
	literal := func(e ast.Expr) (string, bool) { return literalIn(e, consts) }
	switch e := e.(type) {
	case *ast.Ident:
		s, ok := consts[e.Name]
		return s, ok
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		a, ok1 := literal(e.X)
		b, ok2 := literal(e.Y)
		return a + b, ok1 && ok2
	case *ast.ParenExpr:
		return literal(e.X)
	}
	return "", false
}

// passedOn is a message passed on, whose key the scan sees where it was
// made: a Text's (t.Format), or a wrapper's parameter named format (the
// game service's userf, draft.tr).
func passedOn(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.SelectorExpr:
		return e.Sel.Name == "Format"
	case *ast.Ident:
		return e.Name == "format"
	}
	return false
}

// TestEveryMessageInEveryLanguage: every message the code and the
// templates write is in every language's catalog, with the same
// arguments, and no catalog keeps a message nothing writes.
func TestEveryMessageInEveryLanguage(t *testing.T) {
	if len(dups) > 0 {
		t.Errorf("messages added twice: %q", dups)
	}
	used := sources(t)
	if len(used) < 20 {
		t.Fatalf("found %d messages in the code: the scan is broken", len(used))
	}
	for _, l := range All[1:] {
		c := catalogs[l]
		var missing []string
		for key, where := range used {
			tr, ok := c[key]
			if !ok {
				missing = append(missing, where[0]+": "+strconv.Quote(key))
				continue
			}
			if a, b := verbs(key), verbs(tr); !maps2equal(a, b) {
				t.Errorf("%s: %q: the arguments differ from the English %q: %v, want %v", l, tr, key, b, a)
			}
		}
		slices.Sort(missing)
		for _, m := range missing {
			t.Errorf("%s: not in the catalog: %s", l, m)
		}
		for key := range c {
			if _, ok := used[key]; !ok {
				t.Errorf("%s: the catalog keeps a message nothing writes: %q", l, key)
			}
		}
	}
}

// verbs maps each argument a format uses to its verb ('s', 'd', …).
func verbs(format string) map[int]byte {
	out := map[int]byte{}
	arg := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("+-# 0123456789.", format[i]) >= 0 {
			i++
		}
		if i < len(format) && format[i] == '[' {
			j := strings.IndexByte(format[i:], ']')
			if j < 0 {
				break
			}
			n, err := strconv.Atoi(format[i+1 : i+j])
			if err == nil {
				arg = n - 1
			}
			i += j + 1
			for i < len(format) && strings.IndexByte("+-# 0123456789.", format[i]) >= 0 {
				i++
			}
		}
		if i >= len(format) || format[i] == '%' {
			continue
		}
		out[arg] = format[i]
		arg++
	}
	return out
}

func maps2equal(a, b map[int]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
