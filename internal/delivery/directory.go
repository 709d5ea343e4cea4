package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/tenantdir"
)

// Directory delivers to a DIRECTORY connection: the file is written to
// its outboundPath, inside its account's folder under the operator's
// directory root (package tenantdir), under a temporary dot name and then
// renamed to its generated name (FileName), so a reader of the folder
// never sees half a file. Every step goes through an os.Root of the
// folder: no path or link leads out of it.
type Directory struct {
	// Dirs is the directory root; nil refuses every delivery.
	Dirs *tenantdir.Root
}

// Deliver writes the file (Transport).
func (d *Directory) Deliver(_ context.Context, f File) (string, error) {
	if d.Dirs == nil {
		return "", tenantdir.ErrOff
	}
	c := f.Connection
	if c.Mode != store.ModeProduction {
		return "", errors.New("a DIRECTORY connection takes production files only")
	}
	var set struct {
		OutboundPath string `json:"outboundPath"`
	}
	if err := json.Unmarshal(c.Settings, &set); err != nil {
		return "", fmt.Errorf("connection %s: settings: %w", c.ID, err)
	}
	if set.OutboundPath == "" {
		return "", fmt.Errorf("connection %s has no outboundPath to deliver to", c.ID)
	}
	folder, err := d.Dirs.Folder(c.AccountID, c.Mode, set.OutboundPath)
	if err != nil {
		return "", fmt.Errorf("outboundPath %q: %w", set.OutboundPath, err)
	}
	defer folder.Close()
	name := FileName(f.Execution)
	tmp := "." + name + ".part"
	w, err := folder.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return "", err
	}
	_, err = w.Write(f.Body)
	if err == nil {
		err = w.Sync()
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = folder.Rename(tmp, name)
	}
	if err != nil {
		_ = folder.Remove(tmp)
		return "", err
	}
	return "File was delivered to '" + set.OutboundPath + "/" + name + "'", nil
}
