package store

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"time"
)

// codecCase is one record type: a value, its encoder, and a decoder giving the value back.
type codecCase struct {
	name   string
	value  any
	encode func() []byte
	decode func([]byte) (any, error)
}

func codecCases() []codecCase {
	at := time.Date(2026, 3, 1, 12, 30, 0, 123456789, time.UTC)
	rec := &rawRecord{Kind: KindMove, Side: Black, Secret: true, Index: 41, Ply: 41, At: at, Public: "(h)",
		Commitment: Digest{1, 2, 3}, Sealed: bytes.Repeat([]byte{9}, 60)}
	pub := &rawRecord{Kind: KindEvent, Side: White, Index: 300, Ply: 299, At: at, Text: "resigns", Public: "resigns",
		Lines: [2]string{"you resign", "White resigns"}}
	key := [32]byte{7}
	sec := &secretPart{Text: "Sd4~f5", Lines: [2]string{"", "21... Sd4~f5"}, Key: &key}
	game := &Game{ID: 5, Variant: "seachess", Ruleset: "seachess/1", TimeControl: "3d/move",
		Seats: [2]Seat{{1, "a@x.org"}, {2, "b@y.org"}}, Status: StatusFinished, Result: "0-1", Hidden: true,
		State: []byte("sealed"), PublicState: []byte("pub"), Deadlines: []Deadline{{at, DeadlineTimeout}},
		Created: at, Updated: at.Add(time.Hour), Records: 80, Head: Digest{0xff}}
	player := &Player{ID: 3, Name: "Zoë", Address: "zoe@example.org", Created: at}
	listed := &Game{ID: 6, Variant: "fide", Ruleset: "fide/1", TimeControl: "5d", Seats: [2]Seat{{1, "a@x.org"}, {1, "a@x.org"}},
		State: []byte("start"), Meta: []byte(`{"phase":"open"}`), Created: at, Updated: at, Head: Digest{1}, Match: "open fide 5d"}
	due := &Player{ID: 4, Name: "Ann", Address: "ann@example.org", Created: at, Meta: []byte("{}"), Due: at.Add(20 * time.Hour)}
	token := &TokenRef{Game: 5, Player: 3, Side: Black}
	mail := &Mail{ID: 9, Game: 5, From: "ref@x", To: []string{"a@x.org", "b@y.org"}, Data: []byte("sealed mail"),
		Created: at, Attempts: 2, NextTry: at.Add(time.Minute), LastError: "451"}
	return []codecCase{
		{"secret record", rec, func() []byte { return encodeRecord(rec) }, func(b []byte) (any, error) { return decodeRecord(b) }},
		{"public record", pub, func() []byte { return encodeRecord(pub) }, func(b []byte) (any, error) { return decodeRecord(b) }},
		{"sealed part", sec, func() []byte { return encodeSecret(sec) }, func(b []byte) (any, error) { return decodeSecret(b) }},
		{"game", game, func() []byte { return encodeGame(game, game.State) }, func(b []byte) (any, error) { return decodeGame(b) }},
		{"player", player, func() []byte { return encodePlayer(player) }, func(b []byte) (any, error) { return decodePlayer(b) }},
		{"token", token, func() []byte { return encodeToken(token) }, func(b []byte) (any, error) { return decodeToken(b) }},
		{"mail", mail, func() []byte { return encodeMail(mail) }, func(b []byte) (any, error) { return decodeMail(b) }},
		{"processed", at, func() []byte { return encodeProcessed(at) }, func(b []byte) (any, error) { return decodeProcessed(b) }},
		{"listed game", listed, func() []byte { return encodeGame(listed, listed.State) }, func(b []byte) (any, error) { return decodeGame(b) }},
		{"player with a deadline", due, func() []byte { return encodePlayer(due) }, func(b []byte) (any, error) { return decodePlayer(b) }},
	}
}

func TestRecordCodecs(t *testing.T) {
	for _, tc := range codecCases() {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.encode()
			got, err := tc.decode(b)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.value) {
				t.Errorf("round trip:\n got %#v\nwant %#v", got, tc.value)
			}
			bad := map[string][]byte{
				"empty":          nil,
				"other format":   append([]byte{b[0] + 1}, b[1:]...),
				"trailing byte":  append(bytes.Clone(b), 0),
				"stretched":      append([]byte{b[0], 0x80 | b[1]&0x7f, 0}, b[2:]...), // a non-minimal varint, or a bad byte
				"truncated":      b[:len(b)-1],
				"truncated half": b[:len(b)/2],
			}
			for name, in := range bad {
				if _, err := tc.decode(in); !errors.Is(err, ErrCorrupt) {
					t.Errorf("%s: %v, want ErrCorrupt", name, err)
				}
			}
		})
	}
}

func TestDeadlineKeys(t *testing.T) {
	times := []time.Time{
		time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC),
		time.Date(2026, 3, 1, 12, 0, 0, 1, time.UTC),
		time.Date(2026, 3, 1, 13, 0, 0, 0, time.FixedZone("CET", 3600)).Add(time.Second), // 12:00:01 UTC
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
	}
	var prev []byte
	for i, at := range times {
		k := deadlineKey(uint64(i)+1, Deadline{At: at, Kind: DeadlineReminder})
		if prev != nil && bytes.Compare(prev, k) >= 0 {
			t.Errorf("key of %v sorts before the previous one", at)
		}
		prev = k
		d, err := decodeDeadlineKey(k)
		if err != nil || d.Game != uint64(i)+1 || !d.At.Equal(at) || d.Kind != DeadlineReminder {
			t.Errorf("decode %q = %+v, %v", k, d, err)
		}
	}
	if _, err := decodeDeadlineKey([]byte("2026")); !errors.Is(err, ErrCorrupt) {
		t.Errorf("short key: %v", err)
	}
}
