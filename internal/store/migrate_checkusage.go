package store

// Migration 432: a check's usage outlives the check, whoever deletes it.
//
// A check is its own usage row (usage.go, 00430), so deleting a check
// must copy its usage into the usage table first — not only in this
// version's retention (PurgeExpired) but in a replica of the previous
// version, which keeps working beside the new schema during a rolling
// upgrade (docs/operations/upgrades.md) and deletes checks without any
// copy. The trigger makes the copy for every DELETE, unless the usage
// table already holds the check's row (an older build's). A DELETE costs it; an INSERT does not. A check a
// group round deletes again (its audit event failed: checkrows.go's undo)
// was never a call, and undo deletes that row too.
func checkUsageKeptUp(engine string) []string {
	if engine == EnginePostgres {
		return []string{
			`CREATE FUNCTION eligibility_checks_keep_usage() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN
				` + keepCheckUsage + `
				RETURN OLD;
			END $$`,
			`CREATE TRIGGER eligibility_checks_keep_usage BEFORE DELETE ON eligibility_checks
				FOR EACH ROW EXECUTE FUNCTION eligibility_checks_keep_usage()`,
		}
	}
	return []string{`CREATE TRIGGER eligibility_checks_keep_usage BEFORE DELETE ON eligibility_checks
		BEGIN ` + keepCheckUsage + ` END`}
}

// keepCheckUsage inserts the usage row of the check OLD unless it is there.
const keepCheckUsage = `INSERT INTO usage (` + usageColumns + `)
	SELECT OLD.id, OLD.account_id, OLD.key_id, OLD.mode, '` + UsageEligibilityCheck + `', OLD.id, OLD.cost_micros, OLD.created_at
	WHERE NOT EXISTS (SELECT 1 FROM usage u WHERE u.account_id = OLD.account_id AND u.created_at = OLD.created_at
		AND u.kind = '` + UsageEligibilityCheck + `' AND u.ref_id = OLD.id);`

func checkUsageKeptDown(engine string) []string {
	if engine == EnginePostgres {
		return []string{`DROP TRIGGER eligibility_checks_keep_usage ON eligibility_checks`,
			`DROP FUNCTION eligibility_checks_keep_usage()`}
	}
	return []string{`DROP TRIGGER eligibility_checks_keep_usage`}
}
