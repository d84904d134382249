/**
 * Once per jest run: the test database's commits stop waiting for the disk.
 *
 * HARBOR_TEST_DATABASE_URL names a scratch database (tests create, empty and
 * drop schemas in it), and its tests commit thousands of small transactions.
 * With PostgreSQL's default synchronous_commit each waits for its WAL flush:
 * watches/slack-budget.test.ts took 6.3 s alone and 26 s in the full suite,
 * 3.8 s without the waits (docs/test-suite.md). Turning it off keeps every
 * guarantee a test can see (each commit is atomic and visible to the next
 * query); only a crash of the database server could lose the last commits,
 * which no test survives anyway. A database the role may not alter keeps its
 * setting: the suite is slower there, not different.
 */
module.exports = async function slowCommitsOff() {
  const url = process.env.HARBOR_TEST_DATABASE_URL;
  if (!url) return;
  const pg = require('pg');
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query('SELECT current_database() AS name');
    await client.query(`ALTER DATABASE "${rows[0].name.replaceAll('"', '""')}" SET synchronous_commit = off`);
  } catch (err) {
    console.warn(
      `the test database keeps its synchronous_commit (${err.message}); PostgreSQL tests run slower`,
    );
  } finally {
    await client.end().catch(() => {});
  }
};
