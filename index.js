// n8n does not load this file: it finds the nodes and credentials of this package through the
// "n8n" section of package.json (dist/nodes/..., dist/credentials/...). It exists because
// package.json names it as "main".
