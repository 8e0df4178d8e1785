package store

import (
	"fmt"
	"log/slog"

	bolt "go.etcd.io/bbolt"
)

// schemaVersion is the layout this program writes. Version 1 is the first release; version
// 2 added the match and player deadline indexes; version 3 the sealed conditional moves;
// version 4 keeps only keyed hashes of the reply tokens; version 5 counts the welcomes in a
// bucket of their own.
//
// To change the layout: raise schemaVersion, add the step from the old version to
// migrations, keep the decoders of the old record formats the step needs, and add a fixture
// of the new version (go test ./store -run TestFixture -update). The fixtures of every older
// version stay under testdata/ and TestFixture keeps opening them.
const schemaVersion = 5

// migration upgrades a database from one schema version to the next, inside the
// transaction that Open runs; if it fails, nothing of the upgrade is written.
type migration struct {
	describe string
	run      func(tx *bolt.Tx, v *vault) error
}

// migrations[v] upgrades version v to v+1.
var migrations = map[uint64]migration{
	// Version 2 adds the match index (Game.Match, game records of format 2) and the player
	// deadline index (Player.Due, player records of format 2). Records of version 1 have
	// neither, so both indexes start empty; the game service lists its waiting games and
	// moves its digest schedule itself.
	1: {describe: "add the match and player deadline indexes", run: func(tx *bolt.Tx, _ *vault) error {
		for _, b := range [][]byte{bucketMatches, bucketPlayerDue} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	}},
	// Version 3 adds the bucket of the sides' conditional moves (sealed). A database of
	// version 2 holds none, so it starts empty; a program of version 2 must not open a
	// database that may hold some, since its Archive would leave them behind.
	2: {describe: "add the conditional moves", run: func(tx *bolt.Tx, _ *vault) error {
		_, err := tx.CreateBucketIfNotExists(bucketConditionals)
		return err
	}},
	// Version 4 replaces each reply token, the key of the tokens bucket, by its keyed hash
	// (vault.tokenHash): a copy of the database no longer lets its holder act for a player.
	// The old keys may linger in free pages until they are reused; a compacted copy
	// (bottlepost compact) has none.
	3: {describe: "keep only keyed hashes of the reply tokens", run: hashTokens},
	// Version 5 adds the welcomes bucket: the game service counts there, per address and
	// day, the welcomes it sends, which it marked before as processed message ids. Those
	// marks cannot be told from the ids of processed mail (both are hashes), so they stay
	// where they are, and are pruned with them; the game service still counts them on the
	// day of the upgrade.
	4: {describe: "count the welcomes in a bucket of their own", run: func(tx *bolt.Tx, _ *vault) error {
		_, err := tx.CreateBucketIfNotExists(bucketWelcomes)
		return err
	}},
}

// hashTokens is the step to version 4: every key of the tokens bucket, a token in the
// clear, becomes its keyed hash. The bucket is rebuilt, so no clear key stays in its pages.
func hashTokens(tx *bolt.Tx, v *vault) error {
	old := tx.Bucket(bucketTokens)
	if old == nil {
		return nil
	}
	type entry struct{ k, v []byte }
	var all []entry
	err := old.ForEach(func(k, val []byte) error {
		if _, err := decodeToken(val); err != nil {
			return fmt.Errorf("token record: %w", err)
		}
		all = append(all, entry{v.tokenHash(normToken(string(k))), append([]byte(nil), val...)})
		return nil
	})
	if err != nil {
		return err
	}
	if err := tx.DeleteBucket(bucketTokens); err != nil {
		return err
	}
	b, err := tx.CreateBucket(bucketTokens)
	if err != nil {
		return err
	}
	for _, e := range all {
		if err := b.Put(e.k, e.v); err != nil {
			return err
		}
	}
	return nil
}

// migrateTo runs the steps from version from up to version to.
func migrateTo(tx *bolt.Tx, keys *vault, from, to uint64, steps map[uint64]migration, log *slog.Logger) error {
	for v := from; v < to; v++ {
		m, ok := steps[v]
		if !ok {
			return fmt.Errorf("store: no migration from schema version %d to %d: %w", v, v+1, ErrSchema)
		}
		log.Info("store migrating", "from", v, "to", v+1, "step", m.describe)
		if err := m.run(tx, keys); err != nil {
			return fmt.Errorf("store: migration from schema version %d to %d (%s): %w", v, v+1, m.describe, err)
		}
		meta := tx.Bucket(bucketMeta)
		if err := meta.Put(metaSchema, (&enc{}).uvarintBytes(v+1)); err != nil {
			return fmt.Errorf("store: migration from schema version %d to %d: the version: %w", v, v+1, err)
		}
	}
	return nil
}
