package store

// The inserts of an execution's records (an inbound file's, a dental
// claim's) run only inside transactions: prepared when the store opens,
// they are parsed once instead of once per claim (SQLite's parser was a
// tenth of a claim submission's CPU).
var recordStatements = []string{insertExecutionSQL, insertTransactionSQL, insertFragmentSQL,
	insertIdentifierRunSQL, upsertIdentifierGroupSQL, insertIdentifierKeysSQLite, insertGroupKeysSQLite, insertDentalClaimSQL, completeIdempotentSQL, insertEventSQL, insertJobSQL,
	findClaimsForAnswerSQLite}
