import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the schemas (`npm run db:generate -- --name <change>` writes both
// dialects), committed, and applied at open. Never hand-edit the generated SQL.
// SQLite (the default): src/store/schema.ts -> drizzle/. PostgreSQL (DRIZZLE_DIALECT=postgres):
// src/store/postgres/schema.ts -> drizzle/postgres/.
export default process.env.DRIZZLE_DIALECT === 'postgres'
  ? defineConfig({ dialect: 'postgresql', schema: './src/store/postgres/schema.ts', out: './drizzle/postgres' })
  : defineConfig({ dialect: 'sqlite', schema: './src/store/schema.ts', out: './drizzle' });
