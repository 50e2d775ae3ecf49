// A minimal VS Code client for `fnhcl lsp`: starts the server found on PATH (or at the
// `fnhcl.path` setting) over stdio for `.hcl` files. Not published; see README.md.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('fnhcl').get('path') || 'fnhcl';
  const server = { command, args: ['lsp'] };
  client = new LanguageClient(
    'fnhcl',
    'fnhcl',
    { run: server, debug: server },
    { documentSelector: [{ scheme: 'file', language: 'hcl' }] },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
