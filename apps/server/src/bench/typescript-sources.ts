// Node runs the workspace's TypeScript sources as they are. The tooling packages write their relative imports with the
// `.js` names that the TypeScript compiler wants; Node is told to take the `.ts` source when there is no `.js` file.
import { registerHooks } from "node:module";

registerHooks({
  resolve(specifier, context, next) {
    try {
      return next(specifier, context);
    } catch (error) {
      if (specifier.startsWith(".") && specifier.endsWith(".js")) {
        return next(`${specifier.slice(0, -".js".length)}.ts`, context);
      }
      throw error;
    }
  },
});
