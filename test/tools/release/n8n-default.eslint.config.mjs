// The configuration n8n-node lint uses in strict mode (the default of @n8n/node-cli), applied by
// npm run lint to the code that runs in n8n: package.json, nodes/ and credentials/.
export { config as default } from '@n8n/node-cli/eslint';
