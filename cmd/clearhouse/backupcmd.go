package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/clearhouse/clearhouse/internal/backup"
	"github.com/clearhouse/clearhouse/internal/secrets"
)

func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var dataDir, to string
	fs := newFlagSet("backup", "backup --to DIR [--data DIR]",
		"Copies the SQLite database (a consistent snapshot, VACUUM INTO) and then every blob file of the\n"+
			"data directory into DIR (new or empty), with manifest.json listing each file's size and SHA-256.\n"+
			"Safe while 'clearhouse serve' runs. The secrets key is not copied: keep it apart from the backup.\n"+
			"PostgreSQL and S3 deployments use pg_dump and bucket versioning instead (docs/operations/backups.md).", stderr)
	fs.StringVar(&dataDir, "data", "./data", "the data directory 'clearhouse serve' uses")
	fs.StringVar(&to, "to", "", "the backup directory to create (required; must be new or empty)")
	commandLineOnly(fs, "to")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || to == "" {
		return &exitError{code: 2, err: usageError(fs.Name(), "give --to DIR and no other arguments")}
	}
	m, err := backup.Take(ctx, dataDir, to)
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	var bytes int64
	for _, f := range m.Files {
		bytes += f.Size
	}
	fmt.Fprintf(stdout, "Backed up %d files (%d bytes) into %s; manifest %s.\n", len(m.Files), bytes, to, filepath.Join(to, backup.ManifestFile))
	fmt.Fprintf(stdout, "Not copied: %s (keep the secrets key on its own).\n", secrets.KeyFileName)
	return nil
}

func runRestore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var from, dataDir string
	fs := newFlagSet("restore", "restore --from DIR --data NEW",
		"Checks every file of the backup in DIR against its manifest (size and SHA-256), then copies it\n"+
			"into the data directory NEW, which must not hold a database, and checks the database's integrity.", stderr)
	fs.StringVar(&from, "from", "", "the backup directory (required)")
	fs.StringVar(&dataDir, "data", "", "the new data directory (required)")
	commandLineOnly(fs, "from", "data")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || from == "" || dataDir == "" {
		return &exitError{code: 2, err: usageError(fs.Name(), "give --from DIR and --data NEW and no other arguments")}
	}
	m, err := backup.Restore(ctx, from, dataDir)
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	fmt.Fprintf(stdout, "Restored %d files into %s, every checksum verified. Put the secrets key (%s) back before starting serve there.\n",
		len(m.Files), dataDir, secrets.KeyFileName)
	return nil
}
