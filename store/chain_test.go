package store

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
)

// chainGame builds a hidden game with n moves and returns its game value and stored links.
func chainGame(t *testing.T, n int) (*Store, *Game, []Link) {
	t.Helper()
	st := openTest(t, t.TempDir())
	g := newGame(t, st, true)
	for i := range n {
		if err := st.Update(func(tx *Tx) error { _, err := accept(tx, g.ID, i, t0); return err }); err != nil {
			t.Fatal(err)
		}
	}
	st.View(func(tx *Tx) (err error) { g, err = tx.Game(g.ID); return err })
	return st, g, storedLinks(t, st, g.ID)
}

// storedLinks reads a game's log as links with whole hashes.
func storedLinks(t *testing.T, st *Store, game uint64) []Link {
	t.Helper()
	var links []Link
	err := st.View(func(tx *Tx) error {
		recs, err := tx.Log(game)
		for _, r := range recs {
			links = append(links, Link{Body: r.body, Hash: r.Hash})
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return links
}

// writeLog replaces a game's stored log behind the store's back. With forge, it also
// recomputes every hash and the game's head, as a forger with the file (but without the
// players' receipts) could.
func writeLog(t *testing.T, st *Store, game uint64, links []Link, forge bool) {
	t.Helper()
	if forge {
		rehash(game, links)
	}
	err := st.db.Update(func(btx *boltTx) error {
		b := btx.Bucket(bucketLog)
		c := b.Cursor()
		for k, _ := c.Seek(be64(game)); k != nil && bytes.HasPrefix(k, be64(game)); k, _ = c.Seek(be64(game)) {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		for i, l := range links {
			if err := b.Put(logKey(game, uint32(i)), append(bytes.Clone(l.Body), l.Hash[:checkSize]...)); err != nil {
				return err
			}
		}
		if !forge {
			return nil
		}
		g, err := decodeGame(btx.Bucket(bucketGames).Get(be64(game)))
		if err != nil {
			return err
		}
		g.Records, g.Head = uint32(len(links)), ChainStart(game)
		if len(links) > 0 {
			g.Head = links[len(links)-1].Hash
		}
		return btx.Bucket(bucketGames).Put(be64(game), encodeGame(g, g.State))
	})
	if err != nil {
		t.Fatal(err)
	}
}

func rehash(game uint64, links []Link) {
	h := ChainStart(game)
	for i := range links {
		h = chainNext(h, links[i].Body)
		links[i].Hash = h
	}
}

func TestChainTampering(t *testing.T) {
	st, g, links := chainGame(t, 8)
	if head, err := VerifyChain(g.ID, links, Receipt{Records: g.Records, Head: g.Head}); err != nil || head != g.Head {
		t.Fatalf("untouched chain: head %s, %v", head.Short(), err)
	}
	// Plies equal indexes in this game.
	alterBody := func(ls []Link, i int) {
		r, _ := decodeRecord(ls[i].Body)
		r.Public += "!"
		ls[i].Body = encodeRecord(r)
	}
	tests := []struct {
		name      string
		tamper    func([]Link) []Link
		receipts  []Receipt // besides the game's own head
		wantIndex uint32
		wantPly   int // ply of the record at wantIndex; -1: none (past the end)
	}{
		{"altered record", func(ls []Link) []Link { alterBody(ls, 3); return ls }, nil, 3, 3},
		{"altered ciphertext", func(ls []Link) []Link {
			r, _ := decodeRecord(ls[5].Body)
			r.Sealed[30] ^= 1
			ls[5].Body = encodeRecord(r)
			return ls
		}, nil, 5, 5},
		{"altered commitment", func(ls []Link) []Link {
			r, _ := decodeRecord(ls[1].Body)
			r.Commitment[0] ^= 1
			ls[1].Body = encodeRecord(r)
			return ls
		}, nil, 1, 1},
		{"altered and rehashed from there on", func(ls []Link) []Link {
			alterBody(ls, 3)
			rehash(g.ID, ls)
			return ls
		}, nil, 7, 7}, // only the head the players hold shows it
		{"altered and rehashed, caught by an early receipt", func(ls []Link) []Link {
			alterBody(ls, 3)
			rehash(g.ID, ls)
			return ls
		}, []Receipt{{Records: 4, Head: links[3].Hash}}, 3, 3},
		{"removed in the middle", func(ls []Link) []Link { return slices.Delete(ls, 4, 5) }, nil, 4, 5}, // record 5 stands where 4 should
		{"removed at the end", func(ls []Link) []Link { return ls[:7] }, nil, 7, -1},
		{"all removed", func(ls []Link) []Link { return nil }, nil, 0, -1},
		{"reordered", func(ls []Link) []Link { ls[2], ls[3] = ls[3], ls[2]; return ls }, nil, 2, 3},
		{"inserted copy", func(ls []Link) []Link { return slices.Insert(ls, 6, ls[5]) }, nil, 6, 5},
		{"inserted forgery with its own hash", func(ls []Link) []Link {
			r, _ := decodeRecord(ls[6].Body)
			r.Text, r.Secret, r.Sealed = "Qd1xd8", false, nil
			body := encodeRecord(r)
			return slices.Insert(ls, 6, Link{Body: body, Hash: chainNext(ls[5].Hash, body)})
		}, nil, 7, 6}, // the forgery fits; the record after it does not
		{"undecodable", func(ls []Link) []Link { ls[0].Body = ls[0].Body[:5]; return ls }, nil, 0, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ls := make([]Link, len(links))
			for i, l := range links {
				ls[i] = Link{Body: bytes.Clone(l.Body), Hash: l.Hash}
			}
			ls = tc.tamper(ls)
			receipts := append([]Receipt{{Records: g.Records, Head: g.Head}}, tc.receipts...)
			_, err := VerifyChain(g.ID, ls, receipts...)
			var ce *ChainError
			if !errors.As(err, &ce) || !errors.Is(err, ErrTampered) {
				t.Fatalf("VerifyChain = %v, want a *ChainError", err)
			}
			gotPly := -1
			if ce.HasPly {
				gotPly = int(ce.Ply)
			}
			if ce.Index != tc.wantIndex || gotPly != tc.wantPly {
				t.Errorf("error at record %d ply %d, want record %d ply %d: %v", ce.Index, gotPly, tc.wantIndex, tc.wantPly, err)
			}
			t.Log(err)

			// The store's own check catches the same change made in the file.
			writeLog(t, st, g.ID, ls, false)
			err = st.View(func(tx *Tx) error { return tx.VerifyGame(g.ID) })
			if !errors.As(err, &ce) {
				t.Errorf("VerifyGame = %v, want a *ChainError", err)
			}
			writeLog(t, st, g.ID, links, false)
		})
	}
	if err := st.View(func(tx *Tx) error { return tx.VerifyGame(g.ID) }); err != nil {
		t.Fatalf("restored: %v", err)
	}
}

func TestChainOtherGame(t *testing.T) {
	_, g, links := chainGame(t, 3)
	_, err := VerifyChain(g.ID+1, links)
	var ce *ChainError
	if !errors.As(err, &ce) || ce.Index != 0 {
		t.Errorf("a log checked as another game's: %v", err)
	}
}

// TestUncountedReceipt: a head quoted alone, as the mails quoted it before they gave the
// record count, is taken (ParseReceipt) and holds wherever it is on the chain, the start
// included; a head that is nowhere on it is refused as a rewritten log.
func TestUncountedReceipt(t *testing.T) {
	_, g, links := chainGame(t, 8)
	own := Receipt{Records: g.Records, Head: g.Head}
	for _, tc := range []struct {
		name, text string
		holds      bool
	}{
		{"after record 3", links[2].Hash.String(), true},
		{"in upper case, with spaces", " " + strings.ToUpper(links[5].Hash.String()) + "\t", true},
		{"the chain's start", ChainStart(g.ID).String(), true},
		{"the game's head", g.Head.String(), true},
		{"another game's start", ChainStart(g.ID + 1).String(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc, err := ParseReceipt(tc.text)
			if err != nil || !rc.Uncounted || rc.String() != strings.ToLower(strings.TrimSpace(tc.text)) {
				t.Fatalf("ParseReceipt(%q) = %+v, %v", tc.text, rc, err)
			}
			_, err = VerifyChain(g.ID, links, own, rc)
			switch {
			case tc.holds && err != nil:
				t.Errorf("refused: %v", err)
			case !tc.holds && (!errors.Is(err, ErrTampered) || !strings.Contains(err.Error(), "the head after none of the game's 8 records")):
				t.Errorf("got %v, want it refused as the head after none of the records", err)
			}
		})
	}
	for _, bad := range []string{"", strings.Repeat("a", 63), strings.Repeat("g", 64), ":" + strings.Repeat("a", 64)} {
		if rc, err := ParseReceipt(bad); err == nil {
			t.Errorf("ParseReceipt(%q) = %+v", bad, rc)
		}
	}
}
