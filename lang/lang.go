// Package lang holds the languages bottlepost writes its mails in and one
// catalog of messages per language (issue 34; docs/service.md,
// "Languages").
//
// A message is written in the code in English, as a fmt format with its
// arguments; the English format is the message's key. A catalog maps the
// keys to the same message in its language, with the same verbs (an
// argument may move with an explicit index, %[2]s). English needs no
// catalog. A message not in a catalog is written in English, and noted
// (Missed), which the tests turn into a failure: lang's own test proves
// that every message the code and the templates write is in every
// catalog, and that no catalog keeps a message nothing writes.
//
// The package is pure: it reads and writes nothing, so the rules, the game
// service and the templates may all use it.
package lang

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Lang is a language bottlepost writes in, by its ISO 639-1 code.
type Lang string

// The languages.
const (
	English Lang = "en"
	German  Lang = "de"
)

// Default is the language of a player who chose none and of a service
// whose configuration names none.
const Default = English

// All are the languages, the default first.
var All = []Lang{English, German}

// catalogs are the messages of every language but English, by English
// format (the files de_*.go fill German's).
var catalogs = map[Lang]map[string]string{German: {}}

// add adds messages to a language's catalog; a key given twice is a
// mistake the package's test reports.
func add(l Lang, msgs map[string]string) {
	c := catalogs[l]
	for k, v := range msgs {
		if _, dup := c[k]; dup {
			dups = append(dups, string(l)+": "+k)
		}
		c[k] = v
	}
}

var dups []string // keys added twice (add)

// Parse reads a language as a player names it: its code or its name in
// English or in itself ("de", "German", "Deutsch"), in any case.
func Parse(s string) (Lang, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "en", "english", "englisch":
		return English, true
	case "de", "german", "deutsch":
		return German, true
	}
	return "", false
}

// Of is the language of a stored setting, the default for "" or one not
// known (a setting from a newer version).
func Of(s string) Lang {
	if l, ok := Parse(s); ok {
		return l
	}
	return Default
}

// Name is the language's name in itself ("Deutsch").
func (l Lang) Name() string {
	switch l {
	case German:
		return "Deutsch"
	}
	return "English"
}

// Tr writes a message in the language: the format is looked up in the
// language's catalog and formatted as fmt.Sprintf does, and any argument
// that is itself a Text is written in the language too. A message without
// arguments is written as it stands (a % in it needs no doubling).
func (l Lang) Tr(format string, args ...any) string {
	s := l.lookup(format)
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, l.args(args)...)
}

func (l Lang) args(args []any) []any {
	var out []any
	for i, a := range args {
		if t, ok := a.(Text); ok {
			if out == nil {
				out = slices.Clone(args)
			}
			out[i] = t.In(l)
		}
	}
	if out == nil {
		return args
	}
	return out
}

func (l Lang) lookup(key string) string {
	if l == English || l == "" {
		return key
	}
	if s, ok := catalogs[l][key]; ok {
		return s
	}
	missed.Lock()
	if missed.keys == nil {
		missed.keys = map[string]bool{}
	}
	missed.keys[string(l)+": "+key] = true
	missed.Unlock()
	return key
}

var missed struct {
	sync.Mutex
	keys map[string]bool
}

// Missed lists, sorted, the messages looked up in a language whose catalog
// does not have them since the program started ("de: your move"), which
// were written in English. Tests that write mails in every language check
// that it stays empty.
func Missed() []string {
	missed.Lock()
	defer missed.Unlock()
	var out []string
	for k := range missed.keys {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Keys declares messages that the code looks up by a value rather than
// writes as a literal (Word): a variant's side names, its kinds of piece.
// It returns them, so a table can be made of it; lang's test reads its
// arguments, which must be string literals, as messages of the catalogs.
func Keys(keys ...string) []string { return keys }

// Key is a message looked up by a value (declared with Keys), to write
// later in the reader's language: a side's name as an argument of another
// message.
func Key(key string) Text { return Text{Format: key} }

// Word is a message without arguments looked up by a value (a side's name,
// "White"), declared with Keys; one not in the language's catalog is
// written as it stands, in English, and noted (Missed).
func (l Lang) Word(key string) string { return l.lookup(key) }

// Text is a message not yet written in a language: an English format and
// its arguments. Code that cannot know the reader's language (a command's
// parser, an error) returns one; the code that writes the mail writes it
// in the reader's language (In).
type Text struct {
	Format string
	Args   []any
	raw    bool              // Format is no message but a text to write as it stands (Raw)
	parts  []Text            // a list (Join): the parts written, then joined with Format
	by     func(Lang) string // written by code (By)
}

// Msg is a message to write later in the reader's language.
func Msg(format string, args ...any) Text { return Text{Format: format, Args: args} }

// Raw is a text that is no message of a catalog, written as it stands in
// every language: what a player wrote, or a text already written in the
// reader's language.
func Raw(s string) Text { return Text{Format: s, raw: true} }

// Error is an error whose message a player may read: a package's prefix
// for the log ("timing") and the message, which the game service writes
// in the player's language.
type Error struct {
	Prefix string
	Msg    Text
	Err    error // the error behind it, if any (Unwrap)
}

// Fail is an Error: a package's prefix and a message of the catalogs.
func Fail(prefix, format string, args ...any) *Error {
	return &Error{Prefix: prefix, Msg: Msg(format, args...)}
}

// Error is the log form, in English: "timing: …".
func (e *Error) Error() string { return e.Prefix + ": " + e.Msg.String() }

// Unwrap is the error behind it.
func (e *Error) Unwrap() error { return e.Err }

// By is a text that code writes in each language: a part of a message
// that is not one message (a game's ending, read from what is stored).
func By(write func(Lang) string) Text { return Text{Format: "by", by: write, raw: true} }

// Join is a list of messages written in the reader's language and joined
// with sep ("; "), which is no message.
func Join(parts []Text, sep string) Text {
	return Text{Format: sep, parts: slices.Clone(parts), raw: true}
}

// In writes the message in a language.
func (t Text) In(l Lang) string {
	if t.by != nil {
		return t.by(l)
	}
	if t.parts != nil {
		s := make([]string, len(t.parts))
		for i, p := range t.parts {
			s[i] = p.In(l)
		}
		return strings.Join(s, t.Format)
	}
	if t.raw {
		return t.Format
	}
	return l.Tr(t.Format, t.Args...)
}

// String writes the message in English, the log's language.
func (t Text) String() string { return t.In(English) }

// IsZero reports whether the message is empty (no message).
func (t Text) IsZero() bool { return t.Format == "" }
