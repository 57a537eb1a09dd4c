#include "mcppromptdialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace Sandpiper {

McpPromptDialog::McpPromptDialog(const McpPromptInfo &prompt, QWidget *parent)
    : QDialog(parent)
    , m_prompt(prompt)
{
    setWindowTitle(tr("Prompt %1").arg(prompt.title.isEmpty() ? prompt.name : prompt.title));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(prompt.description.isEmpty()
                                 ? tr("The MCP server %1 fills this prompt in from what you give.").arg(prompt.server)
                                 : prompt.description);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto *form = new QFormLayout;
    layout->addLayout(form);
    for (const McpPromptArgument &argument : prompt.arguments) {
        auto *field = new QLineEdit;
        field->setAccessibleName(argument.name);
        field->setPlaceholderText(argument.required ? tr("required") : tr("optional"));
        field->setToolTip(argument.description);
        form->addRow(argument.required ? tr("%1 *:").arg(argument.name) : tr("%1:").arg(argument.name), field);
        connect(field, &QLineEdit::textChanged, this, &McpPromptDialog::check);
        m_fields << field;
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Use the prompt"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    check();
}

void McpPromptDialog::check()
{
    bool complete = true;
    for (int i = 0; i < m_fields.size(); ++i)
        complete = complete && (!m_prompt.arguments.at(i).required || !m_fields.at(i)->text().trimmed().isEmpty());
    m_ok->setEnabled(complete);
}

QJsonObject McpPromptDialog::arguments() const
{
    QJsonObject arguments;
    for (int i = 0; i < m_fields.size(); ++i) {
        if (!m_fields.at(i)->text().trimmed().isEmpty())
            arguments.insert(m_prompt.arguments.at(i).name, m_fields.at(i)->text().trimmed());
    }
    return arguments;
}

} // namespace Sandpiper
