package main

import (
	"log/slog"
	"net/url"
	"strings"

	"github.com/clearhouse/clearhouse/internal/tenantdir"
)

// openDirectoryRoot opens serve --directory-root (nil when unset: DIRECTORY
// connections are then refused). It may not overlap the data directory or
// a file:// blob store: a tenant's folder never reaches the server's own
// files.
func openDirectoryRoot(cfg serveConfig, logger *slog.Logger) (*tenantdir.Root, error) {
	if cfg.directoryRoot == "" {
		return nil, nil
	}
	private := []string{cfg.dataDir}
	if strings.HasPrefix(cfg.blobURL, "file://") {
		if u, err := url.Parse(cfg.blobURL); err == nil && u.Path != "" {
			private = append(private, u.Path)
		}
	}
	root, err := tenantdir.Open(cfg.directoryRoot, private...)
	if err != nil {
		return nil, err
	}
	logger.Info("directory root", "dir", root.Dir())
	return root, nil
}
