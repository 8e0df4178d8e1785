package store

import bolt "go.etcd.io/bbolt"

type boltTx = bolt.Tx

func boltOpen(path string) (*bolt.DB, error) { return bolt.Open(path, 0o600, nil) }
