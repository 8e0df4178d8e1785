package store

import (
	"bytes"
	"path/filepath"
	"testing"
)

func TestSettings(t *testing.T) {
	st := openTest(t, t.TempDir())
	err := st.Update(func(tx *Tx) error {
		if v, err := tx.Setting("digest"); v != nil || err != nil {
			t.Errorf("unset setting = %q, %v", v, err)
		}
		if err := tx.PutSetting("digest", []byte("07:00")); err != nil {
			return err
		}
		wantErr(t, tx.PutSetting("", []byte("x")), ErrInvalid)
		wantErr(t, tx.PutSetting("big", make([]byte, maxSetting+1)), ErrInvalid)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	st.View(func(tx *Tx) error {
		if v, _ := tx.Setting("digest"); string(v) != "07:00" {
			t.Errorf("setting = %q", v)
		}
		wantErr(t, tx.PutSetting("digest", nil), ErrReadOnly)
		return nil
	})
	st.Update(func(tx *Tx) error { return tx.PutSetting("digest", nil) })
	st.View(func(tx *Tx) error {
		if v, _ := tx.Setting("digest"); v != nil {
			t.Errorf("deleted setting = %q", v)
		}
		return nil
	})
}

func TestDeriveKey(t *testing.T) {
	dir := t.TempDir()
	st := openTest(t, dir)
	a, b := st.DeriveKey("tokens"), st.DeriveKey("other")
	if len(a) != 32 || bytes.Equal(a, b) || bytes.Equal(a, st.vault.gameKey(0)) {
		t.Errorf("derived keys %x %x", a, b)
	}
	st.Close()
	st2, err := Open(filepath.Join(dir, "game.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	if !bytes.Equal(st2.DeriveKey("tokens"), a) {
		t.Error("a derived key changed across opens")
	}
	other := openTest(t, t.TempDir())
	if bytes.Equal(other.DeriveKey("tokens"), a) {
		t.Error("two master keys derive the same key")
	}
}

func TestDeleteSettings(t *testing.T) {
	st := openTest(t, t.TempDir())
	names := []string{"held/20261120/a", "held/20261120/b", "held/20261121/a", "held/20261122/a", "heartbeat", "welcome"}
	err := st.Update(func(tx *Tx) error {
		for _, n := range names {
			if err := tx.PutSetting(n, []byte("x")); err != nil {
				return err
			}
		}
		wantErr(t, func() error { _, err := tx.DeleteSettings("held/", "held/"); return err }(), ErrInvalid)
		n, err := tx.DeleteSettings("held/", "held/20261122")
		if n != 3 || err != nil {
			t.Errorf("DeleteSettings = %d, %v; want 3 deleted", n, err)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	st.View(func(tx *Tx) error {
		for i, n := range names {
			v, _ := tx.Setting(n)
			if gone := v == nil; gone != (i < 3) {
				t.Errorf("setting %q: gone %v", n, gone)
			}
		}
		return nil
	})
}
