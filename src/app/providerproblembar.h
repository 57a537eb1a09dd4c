#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace Sandpiper {

// Above the composer while the provider of the conversation on screen cannot answer (unknown to
// this version, no address, no key, a local server that does not answer): says why and offers
// the ways out, the default provider (when it is another one that works) and the settings. The
// conversation never moves to another provider without the user's click. Hidden otherwise.
class ProviderProblemBar : public QFrame
{
    Q_OBJECT

public:
    explicit ProviderProblemBar(QWidget *parent = nullptr);

    // PROBLEM says why the provider cannot answer, empty hides the bar; FALLBACK names the
    // provider and model offered instead ("OpenAI · gpt-4o-mini"), empty for none.
    void setProblem(const QString &problem, const QString &fallback);

    QLabel *textLabel() const { return m_text; }
    QPushButton *fallbackButton() const { return m_fallback; }
    QPushButton *settingsButton() const { return m_settings; }

Q_SIGNALS:
    void fallbackRequested();
    void settingsRequested();

private:
    QLabel *m_text;
    QPushButton *m_fallback;
    QPushButton *m_settings;
};

} // namespace Sandpiper
