#include "appearance.h"

#include <settings/settings.h>

#include <QApplication>
#include <QFont>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace Sandpiper {

namespace {

QPalette darkPalette()
{
    QPalette palette;
    const QColor window(0x2b, 0x2d, 0x31);
    const QColor base(0x1e, 0x1f, 0x22);
    const QColor text(0xe6, 0xe6, 0xe6);
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::AlternateBase, QColor(0x2f, 0x32, 0x37));
    palette.setColor(QPalette::ToolTipBase, window);
    palette.setColor(QPalette::ToolTipText, text);
    palette.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9d, 0xa3));
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::Button, window);
    palette.setColor(QPalette::ButtonText, text);
    palette.setColor(QPalette::BrightText, Qt::red);
    palette.setColor(QPalette::Link, QColor(0x6c, 0xb6, 0xff));
    palette.setColor(QPalette::Highlight, QColor(0x35, 0x74, 0xd4));
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    palette.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    return palette;
}

} // namespace

void applyAppearance(QApplication &app, const Settings &settings)
{
    const QString theme = settings.string(QStringLiteral("appearance/theme"));
    if (theme == QLatin1String("dark") || theme == QLatin1String("light")) {
        // Fusion draws any palette faithfully, whatever the desktop's own style would do.
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(theme == QLatin1String("dark") ? darkPalette()
                                                                : QApplication::style()->standardPalette());
    }
    const int size = settings.integer(QStringLiteral("appearance/chat_font_size"));
    if (size > 0) {
        QFont font = app.font();
        font.setPointSize(size);
        QApplication::setFont(font);
    }
}

} // namespace Sandpiper
