package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func testVault(t *testing.T, fill byte) *vault {
	t.Helper()
	v := new(vault)
	for i := range v.master {
		v.master[i] = fill + byte(i)
	}
	return v
}

func TestVaultRefuses(t *testing.T) {
	v := testVault(t, 1)
	ctx := sealContext{purpose: "record", game: 7, index: 3, ply: 3, side: uint8(Black)}
	plain := []byte("Sd4~f5 mine at e3")
	sealed, err := v.seal(ctx, plain)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := v.open(ctx, sealed); err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("open = %q, %v", got, err)
	}
	if bytes.Contains(sealed, plain) {
		t.Fatal("sealed value holds the plain text")
	}
	again, _ := v.seal(ctx, plain)
	if bytes.Equal(again, sealed) {
		t.Error("two seals of the same value are equal: the nonce is not fresh")
	}
	moved := func(edit func(*sealContext)) sealContext { c := ctx; edit(&c); return c }
	tests := []struct {
		name   string
		vault  *vault
		ctx    sealContext
		sealed []byte
	}{
		{"wrong key", testVault(t, 2), ctx, sealed},
		{"other game", v, moved(func(c *sealContext) { c.game = 8 }), sealed},
		{"other record", v, moved(func(c *sealContext) { c.index = 4 }), sealed},
		{"other ply", v, moved(func(c *sealContext) { c.ply = 5 }), sealed},
		{"other side", v, moved(func(c *sealContext) { c.side = uint8(White) }), sealed},
		{"state, not record", v, moved(func(c *sealContext) { c.purpose = "state" }), sealed},
		{"other format", v, ctx, append([]byte{2}, sealed[1:]...)},
		{"truncated", v, ctx, sealed[:len(sealed)-1]},
		{"empty", v, ctx, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.vault.open(tc.ctx, tc.sealed)
			wantErr(t, err, ErrTampered)
		})
	}
	t.Run("every flipped bit", func(t *testing.T) {
		for i := range len(sealed) * 8 {
			bad := bytes.Clone(sealed)
			bad[i/8] ^= 1 << (i % 8)
			if _, err := v.open(ctx, bad); !errors.Is(err, ErrTampered) {
				t.Fatalf("bit %d flipped: %v", i, err)
			}
		}
	})
}

func TestGameKeysDiffer(t *testing.T) {
	v := testVault(t, 1)
	if bytes.Equal(v.gameKey(1), v.gameKey(2)) || bytes.Equal(v.gameKey(1), testVault(t, 2).gameKey(1)) {
		t.Error("game keys repeat across games or master keys")
	}
	if bytes.Equal(v.keyCheck(), v.gameKey(0)[:16]) {
		t.Error("the key check is a game key")
	}
}

func TestVaultInStore(t *testing.T) {
	st := openTest(t, t.TempDir())
	a, b := newGame(t, st, true), newGame(t, st, true)
	for _, g := range []*Game{a, b} {
		for n := range 4 {
			if err := st.Update(func(tx *Tx) error { _, err := accept(tx, g.ID, n, t0); return err }); err != nil {
				t.Fatal(err)
			}
		}
	}
	linksA, linksB := storedLinks(t, st, a.ID), storedLinks(t, st, b.ID)
	// Each change is made by a forger who also rewrites the hash chain and the game's head,
	// so that only the vault can notice. (A forger who rewrites public records consistently
	// is caught only by the receipts the players hold: see TestChainTampering.)
	tests := []struct {
		name   string
		game   uint64
		index  int              // the record changed
		tamper func(*rawRecord) // edits it
	}{
		{"sealed part swapped in from another game", b.ID, 1, func(r *rawRecord) {
			other, _ := decodeRecord(linksA[1].Body)
			*r = *other
		}},
		{"sealed part moved to another side", a.ID, 1, func(r *rawRecord) { r.Side = 1 - r.Side }},
		{"sealed part moved to another ply", a.ID, 1, func(r *rawRecord) { r.Ply++ }},
		{"sealed parts of two records exchanged", a.ID, 3, func(r *rawRecord) {
			other, _ := decodeRecord(linksA[1].Body)
			r.Sealed, r.Commitment = other.Sealed, other.Commitment
		}},
		{"flipped bit in the ciphertext", a.ID, 3, func(r *rawRecord) { r.Sealed[len(r.Sealed)-5] ^= 0x10 }},
		{"sealed part removed from a secret move", a.ID, 3, func(r *rawRecord) { r.Sealed = nil }},
		{"commitment replaced", a.ID, 3, func(r *rawRecord) { r.Commitment[5] ^= 1 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			orig := linksA
			if tc.game == b.ID {
				orig = linksB
			}
			ls := slices.Clone(orig)
			r, err := decodeRecord(ls[tc.index].Body)
			if err != nil {
				t.Fatal(err)
			}
			tc.tamper(r)
			ls[tc.index].Body = encodeRecord(r)
			writeLog(t, st, tc.game, ls, true)
			defer writeLog(t, st, tc.game, orig, true)
			err = st.View(func(tx *Tx) error { _, err := tx.Log(tc.game); return err })
			wantErr(t, err, ErrTampered)
			var ce *ChainError
			if errors.As(err, &ce) {
				t.Errorf("the chain, not the vault, caught it: %v", err)
			}
			t.Log(err)
		})
	}
	t.Run("state swapped between games", func(t *testing.T) {
		var ga, gb []byte
		st.db.View(func(btx *boltTx) error {
			ga = bytes.Clone(btx.Bucket(bucketGames).Get(be64(a.ID)))
			gb = bytes.Clone(btx.Bucket(bucketGames).Get(be64(b.ID)))
			return nil
		})
		rawA, _ := decodeGame(ga)
		rawB, _ := decodeGame(gb)
		rawB.State = rawA.State
		st.db.Update(func(btx *boltTx) error { return btx.Bucket(bucketGames).Put(be64(b.ID), encodeGame(rawB, rawB.State)) })
		defer st.db.Update(func(btx *boltTx) error { return btx.Bucket(bucketGames).Put(be64(b.ID), gb) })
		err := st.View(func(tx *Tx) error { _, err := tx.Game(b.ID); return err })
		wantErr(t, err, ErrTampered)
	})
	if err := st.Verify(t.Context()); err != nil {
		t.Fatalf("after restoring: %v", err)
	}
}

// A copy of the file without the key reveals no secret move, no private record line and
// nothing of a hidden game's state.
func TestFileRevealsNoSecret(t *testing.T) {
	dir := t.TempDir()
	st := openTest(t, dir)
	g := newGame(t, st, true)
	const marker = "SECRETSTATE-zq"
	var lines []string // the lines that show a secret move
	for n := range 12 {
		err := st.Update(func(tx *Tx) error {
			r, err := accept(tx, g.ID, n, t0)
			if err != nil {
				return err
			}
			if r.Secret {
				lines = append(lines, r.Lines[r.Side])
			}
			gg, _ := tx.Game(g.ID)
			gg.State = append(testState(n), marker...)
			return tx.PutGame(gg)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if _, err := st.Backup(&buf); err != nil {
		t.Fatal(err)
	}
	st.Close()
	live, _ := os.ReadFile(filepath.Join(dir, "game.db"))
	for name, file := range map[string][]byte{"backup": buf.Bytes(), "database": live} {
		if !bytes.Contains(file, []byte("(h)")) || !bytes.Contains(file, []byte(moveText(0))) {
			t.Fatalf("%s: the public parts are not in the file: the test looks in the wrong place", name)
		}
		for n := 1; n < 12; n += 2 {
			if bytes.Contains(file, []byte(moveText(n))) {
				t.Errorf("%s holds secret move %d (%s)", name, n, moveText(n))
			}
		}
		for _, l := range lines {
			if bytes.Contains(file, []byte(l)) {
				t.Errorf("%s holds the private line %q", name, l)
			}
		}
		if bytes.Contains(file, []byte(marker)) || bytes.Contains(file, []byte("state-after")) {
			t.Errorf("%s holds the hidden game's state", name)
		}
	}
}
