npx @pigeonhole/server --memory
