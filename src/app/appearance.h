#pragma once

class QApplication;

namespace Sandpiper {

class Settings;

// Follows the system, or forces a light or dark look (the setting appearance/theme); also the
// chat font size (appearance/chat_font_size, 0 for the system's).
void applyAppearance(QApplication &app, const Settings &settings);

} // namespace Sandpiper
