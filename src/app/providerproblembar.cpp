#include "providerproblembar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace Sandpiper {

ProviderProblemBar::ProviderProblemBar(QWidget *parent)
    : QFrame(parent)
    , m_text(new QLabel)
    , m_fallback(new QPushButton)
    , m_settings(new QPushButton(tr("Open &settings…")))
{
    setObjectName(QStringLiteral("providerProblemBar"));
    setAccessibleName(tr("Provider problem"));
    setFrameShape(QFrame::StyledPanel);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setAccessibleName(tr("Why no answer can come"));
    m_settings->setAccessibleName(tr("Open the settings to set up the provider"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_fallback);
    layout->addWidget(m_settings);
    connect(m_fallback, &QPushButton::clicked, this, &ProviderProblemBar::fallbackRequested);
    connect(m_settings, &QPushButton::clicked, this, &ProviderProblemBar::settingsRequested);
    setVisible(false);
}

void ProviderProblemBar::setProblem(const QString &problem, const QString &fallback)
{
    setVisible(!problem.isEmpty());
    m_text->setText(problem);
    m_fallback->setVisible(!fallback.isEmpty());
    m_fallback->setText(tr("&Use %1").arg(fallback));
    m_fallback->setAccessibleName(tr("Continue this conversation with %1").arg(fallback));
}

} // namespace Sandpiper
