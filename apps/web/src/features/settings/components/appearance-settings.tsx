import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { THEME_PREFERENCES } from '@/config/constants';
import { texts } from '@/features/settings/texts';
import { type ThemePreference, useThemeMode } from '@/lib/theme';
import { SectionCard } from './section-card';

export function AppearanceSettings() {
  const { preference, setPreference } = useThemeMode();
  return (
    <SectionCard title={texts.settings.appearance.heading}>
      <FormControl>
        <FormLabel id="theme-choice-label">{texts.settings.appearance.heading}</FormLabel>
        <RadioGroup
          aria-labelledby="theme-choice-label"
          value={preference}
          onChange={(event) => setPreference(event.target.value as ThemePreference)}
        >
          {THEME_PREFERENCES.map((option) => (
            <FormControlLabel key={option} value={option} control={<Radio />} label={texts.theme[option]} />
          ))}
        </RadioGroup>
        <FormHelperText>{texts.settings.appearance.hint}</FormHelperText>
      </FormControl>
    </SectionCard>
  );
}
