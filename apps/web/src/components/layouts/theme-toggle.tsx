import BrightnessAutoIcon from '@mui/icons-material/BrightnessAuto';
import DarkModeOutlinedIcon from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlinedIcon from '@mui/icons-material/LightModeOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { texts } from '@/config/texts';
import { useThemeMode } from '@/lib/theme';

const ICONS = {
  auto: <BrightnessAutoIcon />,
  light: <LightModeOutlinedIcon />,
  dark: <DarkModeOutlinedIcon />,
};

/** One click moves auto → light → dark → auto. */
export function ThemeToggle() {
  const { preference, cyclePreference } = useThemeMode();
  const label = `${texts.theme.toggle}. ${texts.theme.current(texts.theme[preference])}`;
  return (
    <Tooltip title={texts.theme.current(texts.theme[preference])}>
      <IconButton
        color="inherit"
        onClick={cyclePreference}
        aria-label={label}
        data-theme-preference={preference}
      >
        {ICONS[preference]}
      </IconButton>
    </Tooltip>
  );
}
