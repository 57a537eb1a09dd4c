#include "systempromptsettingspage.h"

#include <settings/settings.h>

#include <QHBoxLayout>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace Sandpiper {

SystemPromptSettingsPage::SystemPromptSettingsPage(Settings *settings, QWidget *parent)
    : QWidget(parent)
    , m_settings(settings)
    , m_prompt(new QPlainTextEdit)
{
    m_prompt->setAccessibleName(tr("System prompt"));
    m_prompt->setPlaceholderText(tr("Empty: the default system prompt"));
    m_prompt->setTabChangesFocus(true);
    auto *reset = new QPushButton(tr("Reset to &default"));
    reset->setAccessibleName(tr("Reset the system prompt to the default"));
    connect(reset, &QPushButton::clicked, this, [this] { m_prompt->setPlainText(m_settings->defaultSystemPrompt()); });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_prompt, 1);
    auto *row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(reset);
    layout->addLayout(row);

    const QString prompt = m_settings->string(QStringLiteral("agent/system_prompt"));
    m_prompt->setPlainText(prompt.isEmpty() ? m_settings->defaultSystemPrompt() : prompt);
}

void SystemPromptSettingsPage::save()
{
    // The default prompt saved word for word would freeze it; empty follows future defaults.
    const QString prompt = m_prompt->toPlainText().trimmed();
    m_settings->setValue(QStringLiteral("agent/system_prompt"),
                         prompt == m_settings->defaultSystemPrompt() ? QString() : prompt);
}

} // namespace Sandpiper
