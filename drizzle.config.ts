import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the schema (`npm run db:generate -- --name <change>`), committed
// under drizzle/, and applied by openDatabase() at open. Never hand-edit the generated SQL.
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/store/schema.ts',
  out: './drizzle',
});
