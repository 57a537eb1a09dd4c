#include "mcpserverdialog.h"

#include <llm/apikeystore.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace Sandpiper {

namespace {

QPlainTextEdit *lines(const QString &accessibleName, const QString &placeholder)
{
    auto *edit = new QPlainTextEdit;
    edit->setAccessibleName(accessibleName);
    edit->setPlaceholderText(placeholder);
    edit->setTabChangesFocus(true);
    edit->setMaximumHeight(80);
    return edit;
}

QString joined(const QMap<QString, QString> &map, const QString &separator)
{
    QStringList text;
    for (auto it = map.begin(); it != map.end(); ++it)
        text << it.key() + separator + it.value();
    return text.join(QLatin1Char('\n'));
}

QMap<QString, QString> split(const QString &text, QChar separator)
{
    QMap<QString, QString> map;
    for (const QString &line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const qsizetype at = line.indexOf(separator);
        if (at > 0)
            map.insert(line.left(at).trimmed(), line.mid(at + 1).trimmed());
    }
    return map;
}

} // namespace

McpServerDialog::McpServerDialog(const McpServerConfig &config, QStringList taken, QWidget *parent)
    : QDialog(parent)
    , m_taken(std::move(taken))
    , m_name(new QLineEdit(config.name))
    , m_kind(new QComboBox)
    , m_pages(new QStackedWidget)
    , m_command(new QLineEdit(config.command))
    , m_args(lines(tr("Arguments, one per line"),
                   tr("One per line, such as\n-y\n@modelcontextprotocol/server-filesystem")))
    , m_env(lines(tr("Environment variables"), tr("NAME=value, one per line; ${keychain:NAME} reads a secret")))
    , m_cwd(new QLineEdit(config.cwd))
    , m_url(new QLineEdit(config.url))
    , m_headers(
          lines(tr("HTTP headers"), tr("Name: value, one per line, such as\nAuthorization: Bearer ${keychain:token}")))
    , m_timeout(new QSpinBox)
    , m_enabled(new QCheckBox(tr("&Enabled")))
    , m_error(new QLabel)
    , m_secretResult(new QLabel)
{
    setWindowTitle(config.name.isEmpty() ? tr("Add an MCP server") : tr("Edit the MCP server %1").arg(config.name));
    m_name->setAccessibleName(tr("Server name"));
    m_kind->addItem(tr("A program on this computer (stdio)"));
    m_kind->addItem(tr("A remote server (Streamable HTTP)"));
    m_kind->addItem(tr("A remote server (old HTTP+SSE only)"));
    m_kind->setAccessibleName(tr("Kind of server"));
    m_kind->setCurrentIndex(int(config.transport));
    m_command->setAccessibleName(tr("Command"));
    m_command->setPlaceholderText(tr("npx, uvx, node, or a path"));
    m_args->setPlainText(config.args.join(QLatin1Char('\n')));
    m_env->setPlainText(joined(config.env, QStringLiteral("=")));
    m_cwd->setAccessibleName(tr("Working folder"));
    m_cwd->setPlaceholderText(tr("Optional"));
    m_url->setAccessibleName(tr("Server URL"));
    m_url->setPlaceholderText(tr("https://example.com/mcp"));
    m_headers->setPlainText(joined(config.headers, QStringLiteral(": ")));
    m_timeout->setRange(0, 3600);
    m_timeout->setSpecialValueText(tr("Default of the settings"));
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setValue(int(config.timeout.count()));
    m_timeout->setAccessibleName(tr("Timeout per request in seconds"));
    m_enabled->setChecked(config.enabled);
    m_enabled->setAccessibleName(tr("Server enabled"));
    m_error->setStyleSheet(QStringLiteral("color: #b3261e;"));
    m_error->setWordWrap(true);
    m_error->setVisible(false);

    auto *program = new QWidget;
    auto *programForm = new QFormLayout(program);
    programForm->setContentsMargins(0, 0, 0, 0);
    programForm->addRow(tr("&Command:"), m_command);
    programForm->addRow(tr("&Arguments:"), m_args);
    programForm->addRow(tr("En&vironment:"), m_env);
    programForm->addRow(tr("&Folder:"), m_cwd);
    auto *remote = new QWidget;
    auto *remoteForm = new QFormLayout(remote);
    remoteForm->setContentsMargins(0, 0, 0, 0);
    remoteForm->addRow(tr("&URL:"), m_url);
    remoteForm->addRow(tr("&Headers:"), m_headers);
    m_pages->addWidget(program);
    m_pages->addWidget(remote);
    m_pages->setCurrentIndex(config.isRemote() ? 1 : 0);
    connect(m_kind, &QComboBox::currentIndexChanged, this,
            [this](int index) { m_pages->setCurrentIndex(index == 0 ? 0 : 1); });

    auto *secretButton = new QPushButton(tr("Store a &secret in the keychain…"));
    secretButton->setAccessibleName(tr("Store a secret in the keychain"));
    connect(secretButton, &QPushButton::clicked, this, [this] { QCoro::connect(storeSecret(), this, [] {}); });
    m_secretResult->setWordWrap(true);

    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Kind:"), m_kind);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_pages);
    auto *more = new QFormLayout;
    more->addRow(tr("&Timeout:"), m_timeout);
    more->addRow(QString(), m_enabled);
    more->addRow(QString(), secretButton);
    more->addRow(QString(), m_secretResult);
    layout->addLayout(more);
    layout->addWidget(m_error);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &McpServerDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(560, 0);
}

McpServerConfig McpServerDialog::config() const
{
    McpServerConfig config;
    config.name = m_name->text().trimmed();
    config.transport = McpServerConfig::Transport(m_kind->currentIndex());
    if (!config.isRemote()) {
        config.command = m_command->text().trimmed();
        config.args = m_args->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        for (QString &arg : config.args)
            arg = arg.trimmed();
        config.env = split(m_env->toPlainText(), QLatin1Char('='));
        config.cwd = m_cwd->text().trimmed();
    } else {
        config.url = m_url->text().trimmed();
        config.headers = split(m_headers->toPlainText(), QLatin1Char(':'));
    }
    config.timeout = std::chrono::seconds(m_timeout->value());
    config.enabled = m_enabled->isChecked();
    return config;
}

void McpServerDialog::accept()
{
    const McpServerConfig chosen = config();
    // The same checks as a server read from mcp.json.
    QString error;
    if (chosen.name.isEmpty())
        error = tr("Give the server a name.");
    else if (m_taken.contains(chosen.name))
        error = tr("There is a server named %1 already.").arg(chosen.name);
    else if (!McpServerConfig::fromJson(chosen.name, chosen.toJson(), &error))
        error = tr("This server cannot be used: %1").arg(error);
    if (!error.isEmpty()) {
        m_error->setText(error);
        m_error->setVisible(true);
        return;
    }
    QDialog::accept();
}

QCoro::Task<> McpServerDialog::storeSecret()
{
    QPointer<McpServerDialog> self(this);
    const QString name =
        QInputDialog::getText(this, tr("Store a secret"), tr("Name (mcp.json refers to it as ${keychain:NAME}):"));
    if (!self || name.trimmed().isEmpty())
        co_return;
    const QString value =
        QInputDialog::getText(this, tr("Store a secret"), tr("Value of %1:").arg(name.trimmed()), QLineEdit::Password);
    if (!self || value.isEmpty())
        co_return;
    const QString problem = co_await ApiKeyStore::writeSecret(name.trimmed(), value);
    if (!self)
        co_return;
    m_secretResult->setText(problem.isEmpty()
                                ? tr("Stored. Write ${keychain:%1} where the server needs it.").arg(name.trimmed())
                                : tr("The keychain did not take it: %1").arg(problem));
}

} // namespace Sandpiper
