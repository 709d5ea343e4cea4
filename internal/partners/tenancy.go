package partners

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strconv"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/tenantdir"
)

// A connection reaches only its own account and mode: the folders of a
// DIRECTORY connection live in the account's folder under the operator's
// directory root, and an SFTP_SERVER connection names one of the
// account's own SFTP users of the same mode.

// checkFolders checks a DIRECTORY connection's folders against the disk:
// the server must have a directory root, and each folder must stay in the
// account's own folder under it (symlinks resolved).
func (w *world) checkFolders(dirs *tenantdir.Root, settings []byte, path, entry string, ps *problems) {
	if dirs == nil {
		ps.add(path+"/connectionType", "%s: %v", entry, tenantdir.ErrOff)
		return
	}
	var folders map[string]any
	if json.Unmarshal(settings, &folders) != nil {
		return // reported by checkConnectionSettings
	}
	if in, out := folders["inboundPath"], folders["outboundPath"]; in != nil && in == out {
		ps.add(path+"/settings/outboundPath", "%s: setting \"outboundPath\" must differ from inboundPath: a file delivered there would be picked up again as an inbound file", entry)
	}
	for _, name := range []string{"inboundPath", "outboundPath"} {
		p, ok := folders[name].(string)
		if !ok || tenantdir.CheckPath(p) != "" {
			continue // absent, or reported by its setting's check
		}
		if err := dirs.Check(w.accountID, w.mode, p); err != nil {
			ps.add(path+"/settings/"+name, "%s: setting %q %v", entry, name, err)
		}
	}
}

// checkSFTPUsers refuses an SFTP_SERVER connection of doc whose username
// is not an SFTP user of the account and mode. Another account's user and
// no user get the same answer, so the check tells nothing about others.
func checkSFTPUsers(ctx context.Context, q store.Queries, doc Document, after *world, ps *problems) error {
	for i, c := range doc.Connections {
		rec, ok := after.connections[c.ConnectionID]
		if !ok || rec.Type != store.ConnectionSFTPServer {
			continue
		}
		var set struct {
			Username string `json:"username"`
		}
		if json.Unmarshal(rec.Settings, &set) != nil || set.Username == "" {
			continue // reported by checkConnectionSettings
		}
		u, err := q.GetSFTPUser(ctx, set.Username)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if err != nil || u.AccountID != after.accountID || u.Mode != after.mode {
			ps.add("/connections/"+strconv.Itoa(i)+"/settings/username",
				"%s: there is no SFTP user %q in this account's %s mode; a connection may name only its own account and mode's users (the operator adds them with: clearhouse sftp users create --account NAME --mode %s --username %s …)",
				connectionEntry(c.ConnectionID), set.Username, after.mode, after.mode, set.Username)
		}
	}
	return nil
}

// checkHost asks the SSRF guard about a connection's host: an SFTP
// connection's host, and the host of each URL an upstream (CLEARINGHOUSE_API,
// CAQH CORE) is called at. An address the guard would refuse when dialled
// is refused here, when the connection is stored, not found at its first
// call.
func checkHost(check func(string) error, rec store.Connection, path string, ps *problems) {
	if check == nil {
		return
	}
	switch rec.Type {
	case store.ConnectionSFTP:
		var set struct {
			Host string `json:"host"`
		}
		if json.Unmarshal(rec.Settings, &set) != nil || set.Host == "" {
			return // reported by checkConnectionSettings
		}
		if err := check(set.Host); err != nil {
			ps.add(path+"/settings/host", "%s: setting \"host\" %q is an address this server never connects to (%v); give the partner's public host name or address", connectionEntry(rec.ID), set.Host, err)
		}
	case store.ConnectionClearinghouseAPI, store.ConnectionCAQHCORE:
		var set map[string]any
		if json.Unmarshal(rec.Settings, &set) != nil {
			return // reported by checkConnectionSettings
		}
		for _, name := range []string{"url", "coreUrl"} {
			v, _ := set[name].(string)
			u, err := url.Parse(v)
			if v == "" || err != nil || u.Hostname() == "" {
				continue // reported by checkConnectionSettings
			}
			if err := check(u.Hostname()); err != nil {
				ps.add(path+"/settings/"+name, "%s: setting %q %q is at an address this server never connects to (%v); give the upstream's public host name or address", connectionEntry(rec.ID), name, v, err)
			}
		}
	}
}
